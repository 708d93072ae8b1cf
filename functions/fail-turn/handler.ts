import { failTurnInputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, failTurn, type OutcomeStore } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** FailTurn: closes the open batch with failure results, frees the session, reports why. */
export const createHandler = (deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock } & HandlerDeps) =>
  stepHandler(failTurnInputSchema, failTurn, deps);
