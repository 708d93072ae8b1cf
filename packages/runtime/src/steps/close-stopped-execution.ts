import type { StoppedExecution } from '@agentstep/protocol';
import { type AnnounceDeps, announceTurnEnd } from '../events/announce-turn-end.js';
import { stoppedTurnOf } from '../requests/stopped-turn-of.js';
import type { AppendResultsDeps } from './append-results.js';
import { closeStoppedTurn } from './close-stopped-turn.js';

const HOW: Readonly<Record<StoppedExecution['status'], string>> = {
  FAILED: 'failed',
  TIMED_OUT: 'timed out',
  ABORTED: 'was stopped',
};

/**
 * Closes the turn of an execution that stopped without closing it (EventBridge reports it): a
 * cancelled turn as cancelled, any other as failed saying how its execution ended; a turn the loop
 * had closed already is left as it is. When it was the turn's first execution, the turn's end is
 * announced, as the state machine would have. An execution that ran no turn of its own (a
 * duplicate request's, or one stopped before StartTurn) closes nothing.
 */
export async function closeStoppedExecution(
  execution: StoppedExecution,
  deps: AppendResultsDeps & AnnounceDeps,
): Promise<void> {
  const stopped = await stoppedTurnOf(execution, deps.log);
  if (stopped === undefined) return;
  const reason = [execution.error, execution.cause].filter(Boolean).join(': ');
  const failure = `The turn's execution ${HOW[execution.status]}${reason ? ` (${reason})` : ''}.`;
  await closeStoppedTurn(stopped, failure, deps);
  if (stopped.first) await announceTurnEnd(stopped, deps);
}
