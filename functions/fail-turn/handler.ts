import { failTurnInputSchema } from '@agentstep/protocol';
import {
  type Clock,
  describedAfter,
  type EventLog,
  failTurn,
  type OutcomeStore,
  type UsageLedger,
} from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** FailTurn: closes the open batch with failure results, frees the session, reports why; then the turn's result. */
export const createHandler = (
  deps: { log: EventLog; usage: UsageLedger; outcomes: OutcomeStore; clock: Clock } & HandlerDeps,
) => stepHandler(failTurnInputSchema, describedAfter(failTurn), deps);
