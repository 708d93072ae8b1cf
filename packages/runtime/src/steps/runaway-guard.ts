import { DEFAULT_RUNAWAY_LIMITS, type LoopState, type StoredEvent } from '@agentstep/protocol';
import type { ContextStart } from '../event-log/context-start.js';
import { batchId } from './batch-id.js';
import { type TurnTallies, type TurnTally, tallyOf } from './turn-tallies.js';

/** Longest arguments a `RepeatedCall` message quotes, in characters. */
const QUOTED_ARGS = 200;

/**
 * Why the turn must stop before its next model step, if it ran away (decision 0030): a call of one
 * tool with the same arguments made `repeatedCalls` times (`RepeatedCall`), or `stepsWithoutProgress`
 * model steps in a row without a successful call (`NoProgress`). Decided from the session's `log`
 * alone (from seq 1, or from `start.from` with what the turn carried from before), so a redelivered
 * step decides the same; `tallies` keeps the counts from step to step.
 */
export function runawayGuard(
  state: LoopState,
  log: readonly StoredEvent[],
  tallies?: TurnTallies,
  start?: ContextStart,
): string | undefined {
  const tally = tallies?.tally(state.session, state.turn, log, start) ?? tallyOf(state.turn, log, start);
  return repeatedCall(state, tally) ?? noProgress(state, tally);
}

/** `RepeatedCall`: the turn's most repeated call, when it was made `repeatedCalls` times. */
function repeatedCall(state: LoopState, { top }: TurnTally): string | undefined {
  const limit = state.repeatedCalls ?? DEFAULT_RUNAWAY_LIMITS.repeatedCalls;
  if (top === undefined || top.count < limit) return undefined;
  const args = top.args.length > QUOTED_ARGS ? `${top.args.slice(0, QUOTED_ARGS)}…` : top.args;
  return `RepeatedCall: ${top.name} was called ${top.count} times with the same arguments ${args}. The turn stopped before its next model step, as the model seems to be going round in circles. Send another message to continue (say what to do differently), or raise the agent's limits.repeatedCalls.`;
}

/** `NoProgress`: the turn's last `stepsWithoutProgress` model steps had no successful call. */
function noProgress(state: LoopState, { progressed, carried }: TurnTally): string | undefined {
  const limit = state.stepsWithoutProgress ?? DEFAULT_RUNAWAY_LIMITS.stepsWithoutProgress;
  if (state.turnSteps < limit) return undefined;
  if ((carried?.lastProgressed ?? 0) > state.turnSteps - limit) return undefined;
  for (let step = state.turnSteps; step > state.turnSteps - limit; step--) {
    if (progressed.has(batchId(state.turn, step))) return undefined;
  }
  return `NoProgress: the turn took ${limit} model steps in a row without a successful call. The turn stopped before its next model step. Send another message to continue (a hint may help), or raise the agent's limits.stepsWithoutProgress.`;
}
