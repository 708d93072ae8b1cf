import type { QueuedMessage, QueuePlace, TurnQueue } from './turn-queue.js';

interface Entry {
  message: QueuedMessage;
  place: QueuePlace;
}

/** A {@link TurnQueue} in process memory: the same contract as the DynamoDB one, for tests and `--store memory`. */
export class InMemoryTurnQueue implements TurnQueue {
  readonly #queues = new Map<string, Entry[]>();
  /** Every turn ever queued, by session and turn: a turn is queued once. */
  readonly #queuedOnce = new Set<string>();

  async enqueue(session: string, message: QueuedMessage, place: QueuePlace = 'last'): Promise<number> {
    const entries = this.#queues.get(session) ?? [];
    const once = `${session}\n${message.turn}`;
    if (!this.#queuedOnce.has(once)) {
      this.#queuedOnce.add(once);
      entries.push({ message: structuredClone(message), place });
      entries.sort(inStartOrder);
      this.#queues.set(session, entries);
    }
    return entries.findIndex((entry) => entry.message.turn === message.turn) + 1;
  }

  async list(session: string): Promise<QueuedMessage[]> {
    return (this.#queues.get(session) ?? []).map((entry) => structuredClone(entry.message));
  }

  async withdraw(session: string, turn: string): Promise<boolean> {
    const entry = this.#find(session, turn);
    if (entry === undefined || entry.message.claimed) return false;
    await this.remove(session, turn);
    return true;
  }

  async claim(session: string, turn: string): Promise<boolean> {
    const entry = this.#find(session, turn);
    if (entry === undefined) return false;
    entry.message.claimed = true;
    return true;
  }

  async remove(session: string, turn: string): Promise<void> {
    const rest = (this.#queues.get(session) ?? []).filter((entry) => entry.message.turn !== turn);
    if (rest.length > 0) this.#queues.set(session, rest);
    else this.#queues.delete(session);
  }

  async sessions(): Promise<string[]> {
    return [...this.#queues.keys()];
  }

  #find(session: string, turn: string): Entry | undefined {
    return this.#queues.get(session)?.find((entry) => entry.message.turn === turn);
  }
}

/** Interrupting messages first, then each place's in the order they were queued (to the ms, then by turn id). */
function inStartOrder(a: Entry, b: Entry): number {
  if (a.place !== b.place) return a.place === 'first' ? -1 : 1;
  return a.message.queuedAt - b.message.queuedAt || (a.message.turn < b.message.turn ? -1 : 1);
}
