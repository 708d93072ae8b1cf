import { startTurnInputSchema, type TurnLimits } from '@agentstep/protocol';
import { type EventLog, startTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** StartTurn: confirms the turn holds its session and sets up the loop state. */
export const createHandler = (deps: { log: EventLog; limits?: Partial<TurnLimits> } & HandlerDeps) =>
  stepHandler(startTurnInputSchema, startTurn, deps);
