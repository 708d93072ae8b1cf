import { type StartQueuedTurnDeps, startQueuedTurnAfter } from '@agentstep/runtime';
import { eventBridgeHandler, type HandlerDeps } from '@agentstep/runtime/lambda';
import * as z from 'zod';

/**
 * StartQueuedTurn, an EventBridge target: a turn's end was announced (`Agent Turn Completed` or
 * `Agent Turn Failed`); the first message queued for its session starts its turn if the session is
 * free. A detail that is no turn result starts nothing; a failing store or start throws, for
 * EventBridge to retry.
 */
export const createHandler = (deps: StartQueuedTurnDeps & HandlerDeps) =>
  // Any detail passes the envelope: the use case itself starts nothing for one that is no turn result.
  eventBridgeHandler(z.unknown(), startQueuedTurnAfter, deps);
