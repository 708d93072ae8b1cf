import { stoppedExecutionSchema } from '@agentstep/protocol';
import { type AnnounceDeps, type Clock, closeStoppedExecution, type OutcomeStore } from '@agentstep/runtime';
import { eventBridgeHandler, type HandlerDeps } from '@agentstep/runtime/lambda';

/**
 * CloseStoppedTurn, an EventBridge target: an execution of the loop failed, timed out or was
 * stopped without closing its turn; the turn ends in the log (cancelled, or failed saying how), its
 * session is freed, and its end is announced on the event bus.
 */
export const createHandler = (deps: { outcomes: OutcomeStore; clock: Clock } & AnnounceDeps & HandlerDeps) =>
  eventBridgeHandler(stoppedExecutionSchema, closeStoppedExecution, deps);
