import type { AppendResultsDeps } from './append-results.js';
import { cancelRequested } from './cancel-requested.js';
import { closeTurn } from './close-turn.js';
import { CANCELLED_MESSAGE } from './finish-turn.js';

/** The failure each unfinished call of a cancelled turn gets. */
export const CANCELLED_CALL = 'The turn was cancelled before this call finished.';

/**
 * Closes a turn whose execution ended without closing it (stopped, aborted, timed out, killed):
 * `cancelled` if it was asked to stop, else `failed` saying `failure`. Either way each unfinished
 * call of its open batch gets one failure result and the session is freed. Idempotent.
 */
export async function closeStoppedTurn(
  turn: { session: string; turn: string },
  failure: string,
  deps: AppendResultsDeps,
): Promise<void> {
  if (await cancelRequested(deps.log, turn.session, turn.turn)) {
    await closeTurn({ ...turn, status: 'cancelled', message: CANCELLED_MESSAGE }, CANCELLED_CALL, deps);
    return;
  }
  await closeTurn(
    { ...turn, status: 'failed', message: failure },
    `The call never finished: ${failure}`,
    deps,
  );
}
