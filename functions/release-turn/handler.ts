import { failTurnInputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, releaseTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** ReleaseTurn: when FailTurn itself failed, still ends the turn in the log and frees the session. */
export const createHandler = (deps: { log: EventLog; clock: Clock } & HandlerDeps) =>
  stepHandler(failTurnInputSchema, releaseTurn, deps);
