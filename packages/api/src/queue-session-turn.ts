import { ERROR_NAMES, type IfBusy, type TurnAccepted, type TurnQueued } from '@agentstep/protocol';
import {
  type QueuedMessage,
  refuseWorkflowSession,
  startQueuedTurn,
  userMessageKey,
} from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { cancelSessionTurn } from './cancel-session-turn.js';
import type { TurnIds } from './start-session-turn.js';

/**
 * A message for a session that may be busy (decision 0033): queued behind the running turn
 * (`enqueue`), or before every queued message with the running turn cancelled (`interrupt`); then
 * the first queued message starts if the session is free. Answers `running` when this message's turn
 * started, else `queued` with its place in line.
 */
export async function queueSessionTurn(
  deps: ApiDeps,
  ids: TurnIds & { stored: string },
  message: QueuedMessage,
  ifBusy: Exclude<IfBusy, 'reject'>,
): Promise<TurnAccepted | TurnQueued> {
  const { session, stored, turn } = ids;
  await refuseWorkflowSession(stored, deps);
  const place = await deps.queue.enqueue(stored, message, ifBusy === 'interrupt' ? 'first' : 'last');
  // A retried request whose turn started meanwhile: its message leaves the queue, nothing is cancelled.
  if ((await deps.log.appended(stored, userMessageKey(turn))) !== undefined) {
    await deps.queue.remove(stored, turn);
    return { session, turn, status: 'running' };
  }
  // A retried request whose message was withdrawn: a turn is queued once.
  if (place === 0)
    throw new ApiError(
      409,
      'TurnWithdrawn',
      `The message of turn ${turn} of session ${session} was withdrawn.`,
    );
  if (ifBusy === 'interrupt' && (await deps.log.holder(stored))?.turn !== turn)
    await cancelRunningTurn(deps, stored, session);
  // The running turn may have ended before this message was queued: its end started nothing.
  await startQueuedTurn(stored, deps);
  const position = (await deps.queue.list(stored)).findIndex((queued) => queued.turn === turn) + 1;
  if (position === 0) return { session, turn, status: 'running' };
  return { session, turn, status: 'queued', position };
}

/** Cancels the session's running turn and waits for its end, if a turn runs. */
async function cancelRunningTurn(deps: ApiDeps, stored: string, session: string): Promise<void> {
  try {
    await cancelSessionTurn(deps, stored, session);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === ERROR_NAMES.noTurnRunning)) throw error;
  }
}
