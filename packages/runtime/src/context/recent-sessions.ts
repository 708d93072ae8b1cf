/** Sessions a process keeps what it derived of, the least recently stepped forgotten first. */
const DEFAULT_MAX_SESSIONS = 256;

/**
 * What a process derived of each session's log, for the sessions it stepped most recently: taking a
 * session's value marks it used, and putting one forgets the least recently used past the bound.
 */
export class RecentSessions<T> {
  /** Least recently used first (a Map keeps insertion order). */
  readonly #values = new Map<string, T>();
  readonly #max: number;

  constructor(max = DEFAULT_MAX_SESSIONS) {
    this.#max = max;
  }

  /** The session's value, if kept; it is then put back with `put`. */
  take(session: string): T | undefined {
    const value = this.#values.get(session);
    this.#values.delete(session);
    return value;
  }

  /** Keeps the session's value as the most recently used. */
  put(session: string, value: T): void {
    this.#values.set(session, value);
    for (const oldest of this.#values.keys()) {
      if (this.#values.size <= this.#max) break;
      this.#values.delete(oldest);
    }
  }
}
