import { failTurnInputSchema } from '@agentstep/protocol';
import { type Clock, describedAfter, type EventLog, releaseTurn, type UsageLedger } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** ReleaseTurn: when FailTurn itself failed, still ends the turn in the log and frees the session; then the turn's result. */
export const createHandler = (deps: { log: EventLog; usage: UsageLedger; clock: Clock } & HandlerDeps) =>
  stepHandler(failTurnInputSchema, describedAfter(releaseTurn), deps);
