import type { StoredEvent } from '@agentstep/protocol';
import { type ContextStart, carryOf, type TurnCarry } from '../event-log/context-start.js';
import { stepOfBatch, turnOfBatch } from './batch-id.js';
import { turnWaitMs } from './budget-limit.js';
import { type TurnTallies, tallyOf } from './turn-tallies.js';
import { turnUser } from './turn-user.js';

/**
 * What `turn` carries past a compaction of `log` (decision 0039), counted through the log's end:
 * its user message's choices, its calls' counts and most repeated call, its last step with
 * progress, and how long its calls waited for people. What the turn carried past an earlier
 * compaction (`start`) is taken in.
 */
export function turnCarry(
  turn: string,
  log: readonly StoredEvent[],
  start: ContextStart | undefined,
  deps: { now: number; session: string; turnTallies?: TurnTallies | undefined },
): TurnCarry {
  const tally = deps.turnTallies?.tally(deps.session, turn, log, start) ?? tallyOf(turn, log, start);
  const carried = carryOf(start, turn);
  const calls = { ...carried?.calls };
  for (const [key, counted] of tally.calls) calls[key] = counted.count;
  const steps = [...tally.progressed].filter((batch) => turnOfBatch(batch) === turn).map(stepOfBatch);
  const lastProgressed = Math.max(carried?.lastProgressed ?? 0, ...steps);
  const user = turnUser(log, turn, start);
  return {
    turn,
    ...(user === undefined ? {} : { user }),
    calls,
    ...(tally.top === undefined ? {} : { top: { ...tally.top } }),
    ...(lastProgressed > 0 ? { lastProgressed } : {}),
    approvalWaitMs: turnWaitMs(turn, log, start, deps.now),
  };
}
