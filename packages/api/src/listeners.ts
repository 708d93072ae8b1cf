/** Listeners by session: who is handed what a session's model steps write. */
export class Listeners<T> {
  readonly #bySession = new Map<string, Set<(value: T) => void>>();

  /** Adds `listener` to `session`'s; returns how to remove it. */
  add(session: string, listener: (value: T) => void): () => void {
    const listeners = this.#bySession.get(session) ?? new Set();
    this.#bySession.set(session, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#bySession.get(session) === listeners) this.#bySession.delete(session);
    };
  }

  /** Whether `session` has a listener. */
  has(session: string): boolean {
    return this.#bySession.has(session);
  }

  /** Hands `value` to each of `session`'s listeners. */
  hand(session: string, value: T): void {
    for (const listener of this.#bySession.get(session) ?? []) listener(value);
  }
}
