import type { StoppedExecution } from '@agentstep/protocol';
import type { AppendResultsDeps } from './append-results.js';
import { closeStoppedTurn } from './close-stopped-turn.js';

const HOW: Readonly<Record<StoppedExecution['status'], string>> = {
  FAILED: 'failed',
  TIMED_OUT: 'timed out',
  ABORTED: 'was stopped',
};

/**
 * Closes the turn of an execution that stopped without closing it (EventBridge reports it): a
 * cancelled turn as cancelled, any other as failed saying how its execution ended. A turn the loop
 * had closed already is left as it is.
 */
export async function closeStoppedExecution(
  execution: StoppedExecution,
  deps: AppendResultsDeps,
): Promise<void> {
  const reason = [execution.error, execution.cause].filter(Boolean).join(': ');
  const failure = `The turn's execution ${HOW[execution.status]}${reason ? ` (${reason})` : ''}.`;
  await closeStoppedTurn(execution.input, failure, deps);
}
