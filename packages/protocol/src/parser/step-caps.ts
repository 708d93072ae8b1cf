/**
 * The protocol's caps on one model step's output (decision 0012), beside the caps on its
 * `<execute>` body (`BATCH_CAPS`). Over a cap the model gets an error that names it.
 */
export const STEP_CAPS = {
  /**
   * Events one step may store: its thoughts, prose fragments and calls (invalid elements included).
   * Every event is one item appended to the log, in transactions of 90, before the step ends: 1,000
   * take 12 transactions (about 2 s measured on DynamoDB Local) and leave room for a full batch of
   * 500 calls with 500 thoughts and prose fragments.
   */
  events: 1_000,
  /**
   * UTF-8 bytes of text one step may stream, reasoning included: past them the runtime stops
   * reading. A step is parsed, checked and stored in the 512 MB function that streamed it, which
   * holds its text several times over as it does (90 MB took 1.5 GB); 16 MiB is some 4 million
   * tokens, past any provider's output limit and any model's window, and within a call's 1 MiB.
   */
  outputBytes: 16 * 1024 * 1024,
} as const;
