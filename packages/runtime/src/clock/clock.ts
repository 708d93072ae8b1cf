/** Where time comes from, so tests can fix it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() };
