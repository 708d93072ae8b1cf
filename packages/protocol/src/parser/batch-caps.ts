/**
 * The protocol's caps on one `<execute>` body (decision 0012). Over a cap the model gets an error
 * that names it, the model's output stays in the log, and its usage is recorded.
 */
export const BATCH_CAPS = {
  /**
   * How deep the body may nest arrays and objects, its own array included. Deeper JSON cannot be
   * written back out (serializing it overflows the stack), and no tool's arguments need it.
   */
  depth: 64,
  /**
   * Calls in one batch. Each call puts about 100 bytes into the state machine's state (its map
   * item and its result summary); 500 calls stay near 50 KiB, a fifth of Step Functions' 256 KiB
   * payload limit, an error no state machine can catch. The calls' text and outcomes the state
   * also carries are bounded apart, per batch (`INLINE_CALLS_BYTES`, `INLINE_OUTCOMES_BYTES`).
   */
  calls: 500,
  /**
   * UTF-8 bytes of one call's JSON. A Lambda tool receives its arguments in a synchronous invoke,
   * limited to 6 MB; 1 MiB keeps a batch of such calls within what a tool can be given.
   */
  callBytes: 1024 * 1024,
} as const;
