import type { AppendResultsDeps } from './append-results.js';
import { closeOpenBatch } from './close-open-batch.js';
import { endTurn, type TurnEnd } from './end-turn.js';

/**
 * Closes a turn that stops before its end: its open batch gets its result (approvals still
 * waiting cancelled), `reason` as the failure of each call without an outcome (B4), then its terminal
 * record frees the session. Idempotent: whoever closes the turn first writes it.
 */
export async function closeTurn(end: TurnEnd, reason: string, deps: AppendResultsDeps): Promise<void> {
  await closeOpenBatch({ session: end.session, turn: end.turn, writer: end.turn }, reason, deps);
  await endTurn(end, deps);
}
