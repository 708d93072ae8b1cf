import { BATCH_CAPS } from '../parser/batch-caps.js';

/** Step Functions' limit on one Standard execution's history. */
const HISTORY_LIMIT = 25_000;
/** History events of a loop iteration besides its calls: AdvanceTurn's task, Route, RunTools' map. */
const EVENTS_PER_STEP = 12;
/** History events of one call: its map iteration and InvokeTool's task. */
const EVENTS_PER_CALL = 8;

/**
 * How many calls' worth of history a call that waits for approval takes at most: InvokeTool
 * twice, AwaitApproval's task, and ExpireApproval's when nobody decides.
 */
export const APPROVAL_CALL_WEIGHT = 4;
/** Room for StartTurn, ModelStep, retries (three events each) and the execution's end. */
const EVENTS_SPARE = 3_000;

/**
 * Whether an execution that has taken `steps` loop iterations and run `calls` calls must continue
 * in a fresh one before its next iteration, which may run a full batch: its history would otherwise
 * risk passing Step Functions' 25,000 events, a failure no state machine can catch (decision 0012).
 */
export function historyNearlyFull(steps: number, calls: number): boolean {
  const next = EVENTS_PER_STEP + EVENTS_PER_CALL * BATCH_CAPS.calls;
  return steps * EVENTS_PER_STEP + calls * EVENTS_PER_CALL + next + EVENTS_SPARE > HISTORY_LIMIT;
}
