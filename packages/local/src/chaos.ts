/** At-least-once delivery to simulate: each task runs, then with `probability` is delivered again. */
export interface ChaosOptions {
  probability: number;
  seed: number;
}

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Wraps a task so that, with the given probability, it runs and is then delivered again, the way a
 * Lambda retry or a Step Functions retry after a lost response does. The second delivery's output
 * is the one the state machine sees.
 */
export function withChaos<I, O>(
  run: (input: I) => Promise<O>,
  chance: () => boolean,
): (input: I) => Promise<O> {
  return async (input) => {
    const first = await run(input);
    return chance() ? run(input) : first;
  };
}
