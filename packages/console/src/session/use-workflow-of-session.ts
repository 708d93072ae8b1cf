import { useClient } from '../client-context.js';
import { useLoaded } from '../common/use-loaded.js';

/** How a goal session's id ends (`<run>.<n>`): only such ids are looked up as workflow runs. */
const GOAL_SESSION_ENDING = /\.\d+$/;

/**
 * The workflow run whose goal session `session` is (`<run>.<n>` of a run the API knows), else
 * `undefined`: such a session is the run's to write, so its page only reads it.
 */
export function useWorkflowOfSession(session: string): string | undefined {
  const client = useClient();
  const { value } = useLoaded(
    async () => {
      if (!GOAL_SESSION_ENDING.test(session)) return undefined;
      // The rule's owner is the protocol, loaded only for ids that may name a goal session.
      const { runOfGoalSession } = await import('@agentstep/protocol');
      const run = runOfGoalSession(session);
      return run === undefined ? undefined : (await client.workflow(run)).run;
    },
    undefined,
    [client, session],
  );
  return value;
}
