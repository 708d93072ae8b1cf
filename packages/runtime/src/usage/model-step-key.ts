/** What every model step's idempotency key starts with: the ledger lists the appends under it. */
export const MODEL_STEP_KEY_PREFIX = 'model:';

/** The idempotency key of the append that records model step `batch`. */
export function modelStepKey(batch: string): string {
  return `${MODEL_STEP_KEY_PREFIX}${batch}`;
}
