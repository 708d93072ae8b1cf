import { turnResultSchema } from '@agentstep/protocol';
import { storedSessionOf } from '../requests/stored-session.js';
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
