/**
 * The protocol's cap on one model step's output (decision 0012), beside the caps on its
 * `<execute>` body (`BATCH_CAPS`). Over it the model gets an error that names it.
 */
export const STEP_CAPS = {
  /**
   * Events one step may store: its thoughts, prose fragments and calls (invalid elements included).
   * Every event is one item appended to the log, in transactions of 90, before the step ends: 1,000
   * take 12 transactions (about 2 s measured on DynamoDB Local) and leave room for a full batch of
   * 500 calls with 500 thoughts and prose fragments.
   */
  events: 1_000,
} as const;
