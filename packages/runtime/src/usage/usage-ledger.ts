import type { StepUsage } from './step-usage.js';

/**
 * Every model request's usage, per session, apart from the conversation log (`metric` events are
 * not part of it, C1). ModelStep records each step; budgets and `metric` events are read from it.
 */
export interface UsageLedger {
  /** Adds one entry; never replaces another. */
  record(entry: StepUsage): Promise<void>;
  /** The session's entries, oldest first. */
  list(session: string): Promise<StepUsage[]>;
}
