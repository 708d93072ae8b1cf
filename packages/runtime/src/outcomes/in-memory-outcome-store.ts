import type { CallRef, OutcomeStore, StoredOutcome } from './outcome-store.js';

/** An {@link OutcomeStore} in process memory, with the same contract as DynamoDB. */
export class InMemoryOutcomeStore implements OutcomeStore {
  readonly #outcomes = new Map<string, StoredOutcome>();
  readonly #started = new Set<string>();

  async put(call: CallRef, outcome: StoredOutcome): Promise<StoredOutcome> {
    const key = keyOf(call);
    if (!this.#outcomes.has(key)) this.#outcomes.set(key, structuredClone(outcome));
    return structuredClone(this.#outcomes.get(key) as StoredOutcome);
  }

  async get(call: CallRef): Promise<StoredOutcome | undefined> {
    const outcome = this.#outcomes.get(keyOf(call));
    return outcome && structuredClone(outcome);
  }

  async markStarted(call: CallRef): Promise<boolean> {
    const key = keyOf(call);
    if (this.#started.has(key)) return false;
    this.#started.add(key);
    return true;
  }

  async started(call: CallRef): Promise<boolean> {
    return this.#started.has(keyOf(call));
  }

  async list(session: string, batch: string, count: number): Promise<Array<StoredOutcome | undefined>> {
    return Promise.all(
      Array.from({ length: count }, (_, position) => this.get({ session, batch, position })),
    );
  }
}

function keyOf({ session, batch, position }: CallRef): string {
  return JSON.stringify([session, batch, position]);
}
