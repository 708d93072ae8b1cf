import { finishTurnInputSchema } from '@agentstep/protocol';
import {
  type Clock,
  describedAfter,
  type EventLog,
  finishTurn,
  type OutcomeStore,
  type UsageLedger,
} from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/**
 * FinishTurn: the terminal record of a turn that finished, reached a limit or was cancelled (its open
 * batch closed first); frees the session; then the turn's result (as DescribeTurn gives it).
 */
export const createHandler = (
  deps: { log: EventLog; usage: UsageLedger; outcomes: OutcomeStore; clock: Clock } & HandlerDeps,
) => stepHandler(finishTurnInputSchema, describedAfter(finishTurn), deps);
