/** What every model step's idempotency key starts with: the ledger lists the appends under it. */
export const MODEL_STEP_KEY_PREFIX = 'model:';

/** The idempotency key of the append that records model step `batch`. */
export function modelStepKey(batch: string): string {
  return `${MODEL_STEP_KEY_PREFIX}${batch}`;
}

/**
 * The idempotency key of the compaction that comes before model step `batch`, of the context
 * compacted up to `afterSeq` until then (0: never): one per step and starting point, so a
 * redelivered step finds it, and a step may compact once more after the provider refused it.
 */
export function compactionKey(batch: string, afterSeq: number): string {
  return `${MODEL_STEP_KEY_PREFIX}${batch}/compaction@${afterSeq}`;
}
