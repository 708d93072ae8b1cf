import type { StepUsage } from './step-usage.js';

/**
 * Every model step's usage, per session, apart from the conversation (`metric` events are not part
 * of it, C1): a view of the notes ModelStep appends with each step (decision 0013), so each step
 * counts once however often it was delivered. Budgets and `metric` events are read from it.
 */
export interface UsageLedger {
  /** The session's entries, one per model step taken, oldest first. */
  list(session: string): Promise<StepUsage[]>;
}
