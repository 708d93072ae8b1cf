/**
 * The streams following each turn in this process: a client that leaves one cancels its turn only
 * when, a grace period later, no stream follows it any more (a reload or a dropped connection comes
 * back within it; a stop does not).
 */
export class TurnFollowers {
  readonly #counts = new Map<string, number>();

  /** Counts one more stream following `turn` of the log stored as `session`; the answer stops counting it. */
  follow(session: string, turn: string): () => void {
    const key = `${session}\n${turn}`;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(key) ?? 1) - 1;
      if (left > 0) this.#counts.set(key, left);
      else this.#counts.delete(key);
    };
  }

  /** Whether a stream follows `turn` of the log stored as `session` now. */
  followed(session: string, turn: string): boolean {
    return this.#counts.has(`${session}\n${turn}`);
  }
}
