import { stoppedExecutionSchema } from '@agentstep/protocol';
import { type Clock, closeStoppedExecution, type EventLog, type OutcomeStore } from '@agentstep/runtime';
import { eventBridgeHandler, type HandlerDeps } from '@agentstep/runtime/lambda';

/**
 * CloseStoppedTurn, an EventBridge target: an execution of the loop failed, timed out or was
 * stopped without closing its turn; the turn ends in the log (cancelled, or failed saying how) and
 * its session is freed.
 */
export const createHandler = (deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock } & HandlerDeps) =>
  eventBridgeHandler(stoppedExecutionSchema, closeStoppedExecution, deps);
