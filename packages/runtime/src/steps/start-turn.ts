import {
  type Budget,
  DEFAULT_RUNAWAY_LIMITS,
  DEFAULT_TURN_LIMITS,
  type LoopState,
  type RunawayLimits,
  type StartTurnInput,
  type TurnLimits,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { AppendResultsDeps } from './append-results.js';
import { takeSession } from './take-session.js';

/**
 * The first state of a turn's execution: confirms the turn holds its session, finds the session's
 * next model step and fixes the limits and the budget (execution input, else the deployment's, else
 * defaults; the runaway guards: the deployment's, else defaults).
 * A continued execution arrives with its counters and keeps them.
 */
export async function startTurn(
  input: StartTurnInput,
  deps: AppendResultsDeps & { limits?: Partial<TurnLimits & RunawayLimits>; budget?: Budget },
): Promise<LoopState> {
  await takeSession(input.session, input.turn, {}, deps);
  const limits = { ...DEFAULT_TURN_LIMITS, ...DEFAULT_RUNAWAY_LIMITS, ...deps.limits };
  return {
    session: input.session,
    turn: input.turn,
    toolExecution: input.toolExecution ?? 'parallel',
    maxSteps: input.maxSteps ?? limits.maxSteps,
    stepsPerExecution: input.stepsPerExecution ?? limits.stepsPerExecution,
    repeatedCalls: limits.repeatedCalls,
    stepsWithoutProgress: limits.stepsWithoutProgress,
    step: input.step ?? (await countModelSteps(deps.log, input.session)),
    turnSteps: input.turnSteps ?? 0,
    executionSteps: 0,
    executionCalls: 0,
    budget: input.budget ?? deps.budget ?? {},
    startedAt: input.startedAt ?? deps.clock.now(),
    request: input.request ?? null,
  };
}

/** Model steps taken so far in the session: every batch id in the log is one step. */
async function countModelSteps(log: EventLog, session: string): Promise<number> {
  const batches = new Set<string>();
  for (const { batch } of await log.read(session)) if (batch !== undefined) batches.add(batch);
  return batches.size;
}
