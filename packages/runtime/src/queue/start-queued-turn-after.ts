import { type TurnResult, turnResultSchema } from '@agentstep/protocol';
import { storedSession } from '../requests/stored-session.js';
import { type StartQueuedTurnDeps, startQueuedTurn } from './start-queued-turn.js';

/**
 * What a host does when a turn's end is announced (its `TurnResult`, the detail of AgentStep's
 * turn events): starts the session's first queued message, if any (decision 0033). A detail that
 * is no turn result starts nothing.
 */
export async function startQueuedTurnAfter(detail: unknown, deps: StartQueuedTurnDeps): Promise<void> {
  const result = turnResultSchema.safeParse(detail);
  if (result.success) await startQueuedTurn(storedSessionOf(result.data), deps);
}

/** The session a turn result names, as the log stores it: under its tenant's tag when it has one. */
function storedSessionOf({ session, tenant }: TurnResult): string {
  return tenant === undefined ? session : storedSession(tenant, session);
}
