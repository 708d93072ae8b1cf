import { STATE_NAMES } from '@agentstep/protocol';

/**
 * The states whose exit follows an approval's settlement in the log (a decision woke the call, or
 * its time ran out): a run's view catches up with the log then, so decisions show at once.
 */
export const APPROVAL_SETTLING_STATES: ReadonlySet<string> = new Set([
  STATE_NAMES.awaitApproval,
  STATE_NAMES.expireApproval,
]);
