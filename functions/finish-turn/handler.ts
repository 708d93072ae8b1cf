import { finishTurnInputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, finishTurn, type OutcomeStore } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/**
 * FinishTurn: the terminal record of a turn that finished, reached a limit or was cancelled (its open
 * batch closed first); frees the session.
 */
export const createHandler = (deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock } & HandlerDeps) =>
  stepHandler(finishTurnInputSchema, finishTurn, deps);
