import { runOfGoalSession } from '@agentstep/protocol';
import { WorkflowSessionError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { WORKFLOW_START_KEY } from './start-workflow.js';

/**
 * Refuses a turn (or a cancel) in a session a workflow run writes alone: the run's own log (it
 * holds a `start` record) and `<run>.<n>`, a session of one of its goals (run yet or not). Throws
 * {@link WorkflowSessionError}; any other session passes. Two point lookups at most.
 */
export async function refuseWorkflowSession(
  session: string,
  deps: { log: Pick<EventLog, 'appended'> },
): Promise<void> {
  if (await isRun(session, deps)) throw new WorkflowSessionError(session, session);
  const run = runOfGoalSession(session);
  if (run !== undefined && (await isRun(run, deps))) throw new WorkflowSessionError(session, run);
}

async function isRun(session: string, deps: { log: Pick<EventLog, 'appended'> }): Promise<boolean> {
  return (await deps.log.appended(session, WORKFLOW_START_KEY)) !== undefined;
}
