import type { Budget, TurnLimits } from '@agentstep/protocol';
import { type Clock, type EventLog, type OutcomeStore, startExecutionTurn } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';
import * as z from 'zod';

/** What StartTurn needs: the stores, the clock, and the deployment's limits and budget. */
export interface StartTurnDeps extends HandlerDeps {
  log: EventLog;
  /** To close a turn whose expired lease StartTurn takes over. */
  outcomes: OutcomeStore;
  clock: Clock;
  limits?: Partial<TurnLimits>;
  budget?: Budget;
  /** The agent version the deployment runs, recorded by each turn's `turn_start`. */
  version?: string;
}

/** StartTurn's payload: the execution input (checked by the use case) and the execution's name. */
const startTurnPayloadSchema = z.object({ input: z.unknown(), execution: z.string().min(1) });

/**
 * StartTurn: starts a submitted turn (confirms it holds its session, sets up the loop state) or a
 * turn an AWS service requested (creates the session if need be, appends the message once).
 */
export const createHandler = (deps: StartTurnDeps) =>
  stepHandler(startTurnPayloadSchema, startExecutionTurn, deps);
