import { SESSION_ID_RULE, sessionIdSchema } from '../payloads/session-id.js';

/** What joins a workflow run's id to the number of one of its goal sessions: `<run>.<n>`. */
export const GOAL_SESSION_SEPARATOR = '.';

/** What a workflow run id a caller chooses is, as error messages say it. */
export const WORKFLOW_RUN_ID_RULE = `${SESSION_ID_RULE}, without "${GOAL_SESSION_SEPARATOR}"`;

/**
 * A workflow run id a caller chooses: a session id without the goal-session separator, so no run
 * id is ever a goal session of another run (`<run>.<n>`), nor the reverse.
 */
export const workflowRunIdSchema = sessionIdSchema
  .refine((id) => !id.includes(GOAL_SESSION_SEPARATOR), {
    message: `must not hold "${GOAL_SESSION_SEPARATOR}": it names a run's goal sessions (<run>${GOAL_SESSION_SEPARATOR}1, <run>${GOAL_SESSION_SEPARATOR}2, …)`,
  })
  .meta({ description: `A workflow run id: ${WORKFLOW_RUN_ID_RULE}.` });

/** The session of a run's `number`th goal turn (from 1): `<run>.<number>`. */
export function goalSessionId(run: string, number: number): string {
  return `${run}${GOAL_SESSION_SEPARATOR}${number}`;
}

/** The run whose goal session `session` would be (`<run>.<n>` gives `<run>`); `undefined` for any other id. */
export function runOfGoalSession(session: string): string | undefined {
  const at = session.lastIndexOf(GOAL_SESSION_SEPARATOR);
  if (at <= 0 || !/^\d+$/.test(session.slice(at + 1))) return undefined;
  return session.slice(0, at);
}
