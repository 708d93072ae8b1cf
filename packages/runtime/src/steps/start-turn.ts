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

/** What the first state of a turn's execution needs besides the stores. */
export interface StartTurnDeps extends AppendResultsDeps {
  limits?: Partial<TurnLimits & RunawayLimits>;
  budget?: Budget;
  /** The version of the agent this process runs (`agentVersion`), recorded as the turn's first event. @default none recorded */
  version?: string;
}

/**
 * The first state of a turn's execution: confirms the turn holds its session, records the agent
 * version it runs on (`turn_start`, once per turn), finds the session's next model step and fixes
 * the limits and the budget (execution input, else the deployment's, else defaults; the runaway
 * guards: the deployment's, else defaults). A continued execution arrives with its counters and
 * keeps them.
 */
export async function startTurn(input: StartTurnInput, deps: StartTurnDeps): Promise<LoopState> {
  await takeSession(input.session, input.turn, {}, deps);
  if (input.turnSteps === undefined && deps.version !== undefined)
    await recordTurnStart(input, deps.version, deps);
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

/** Appends the turn's `turn_start` (once: a redelivery replays it): the version of the agent it runs on. */
async function recordTurnStart(
  { session, turn }: StartTurnInput,
  version: string,
  deps: AppendResultsDeps,
): Promise<void> {
  const event = {
    type: 'turn_start' as const,
    content: `Turn ${turn} runs on agent version ${version}.`,
    timestamp: deps.clock.now() / 1000,
    payload: { turn, version },
  };
  await deps.log.append({ session, turn, key: `start:${turn}`, events: [{ event }] });
}

/** Model steps taken so far in the session: every batch id in the log is one step. */
async function countModelSteps(log: EventLog, session: string): Promise<number> {
  const batches = new Set<string>();
  for (const { batch } of await log.read(session)) if (batch !== undefined) batches.add(batch);
  return batches.size;
}
