import { finishTurnInputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, finishTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** FinishTurn: the terminal record of a turn that finished or reached a limit; frees the session. */
export const createHandler = (deps: { log: EventLog; clock: Clock } & HandlerDeps) =>
  stepHandler(finishTurnInputSchema, finishTurn, deps);
