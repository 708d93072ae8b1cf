import type { QueueChange } from '@agentstep/protocol';
import { type QueuedMessage, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';

/** What one read of the queue found: what changed since the read before, and whether a message waits. */
export interface QueueRead {
  changes: QueueChange[];
  waiting: boolean;
}

/**
 * What one stream has seen of its session's queue: each read of the queue tells what changed since
 * the last one (messages queued, turns started, messages withdrawn), and whether any still waits.
 */
export class QueueWatch {
  readonly #deps: Pick<ApiDeps, 'log' | 'queue'>;
  readonly #session: string;
  #seen = new Map<string, QueuedMessage>();

  /** A watch of the queue of the log stored as `session`. */
  constructor(deps: Pick<ApiDeps, 'log' | 'queue'>, session: string) {
    this.#deps = deps;
    this.#session = session;
  }

  /** Reads the queue: what changed since the last read, in the order it happened, and whether a message waits. */
  async read(): Promise<QueueRead> {
    return this.see(await this.#deps.queue.list(this.#session));
  }

  /** What {@link read} answers, given the queue as listed (by whoever listed it). */
  async see(queued: readonly QueuedMessage[]): Promise<QueueRead> {
    const current = new Map(queued.map((message) => [message.turn, message]));
    const changes: QueueChange[] = [];
    for (const turn of this.#seen.keys()) if (!current.has(turn)) changes.push(await this.#left(turn));
    queued.forEach((message, index) => {
      if (!this.#seen.has(message.turn))
        changes.push({
          type: 'turn_queued',
          turn: message.turn,
          position: index + 1,
          message: message.prompt,
        });
    });
    this.#seen = current;
    return { changes, waiting: queued.length > 0 };
  }

  /** How a message left the queue: its turn started (its message logged), or it was withdrawn. */
  async #left(turn: string): Promise<QueueChange> {
    const started = await this.#deps.log.appended(this.#session, userMessageKey(turn));
    return started === undefined
      ? { type: 'turn_withdrawn', turn }
      : { type: 'turn_started', turn, messageSeq: started.firstSeq };
  }
}
