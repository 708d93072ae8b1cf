import { finishTurnInputSchema } from '@agentstep/protocol';
import { type EventLog, finishTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** FinishTurn: frees the session of a turn that finished or reached its step limit. */
export const createHandler = (deps: { log: EventLog } & HandlerDeps) =>
  stepHandler(finishTurnInputSchema, finishTurn, deps);
