import { cancelWaitingApprovals } from '../approvals/cancel-waiting-approvals.js';
import type { AppendResultsDeps } from './append-results.js';
import { closeOpenBatch } from './close-open-batch.js';
import { endTurn, type TurnEnd } from './end-turn.js';

/**
 * Closes a turn that stops before its end: approvals still waiting are cancelled, its open batch
 * gets its result, `reason` as the failure of each call without an outcome (B4), then its terminal
 * record frees the session. Idempotent: whoever closes the turn first writes it.
 */
export async function closeTurn(end: TurnEnd, reason: string, deps: AppendResultsDeps): Promise<void> {
  const ref = { session: end.session, turn: end.turn, writer: end.turn };
  await cancelWaitingApprovals(ref, deps);
  await closeOpenBatch(ref, reason, deps);
  await endTurn(end, deps);
}
