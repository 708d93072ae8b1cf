import { type Budget, startTurnInputSchema, type TurnLimits } from '@agentstep/protocol';
import { type Clock, type EventLog, type OutcomeStore, startTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** What StartTurn needs: the stores, the clock, and the deployment's limits and budget. */
export interface StartTurnDeps extends HandlerDeps {
  log: EventLog;
  /** To close a turn whose expired lease StartTurn takes over. */
  outcomes: OutcomeStore;
  clock: Clock;
  limits?: Partial<TurnLimits>;
  budget?: Budget;
}

/** StartTurn: confirms the turn holds its session and sets up the loop state. */
export const createHandler = (deps: StartTurnDeps) => stepHandler(startTurnInputSchema, startTurn, deps);
