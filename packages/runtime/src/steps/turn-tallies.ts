import { createHash } from 'node:crypto';
import type { StoredEvent } from '@agentstep/protocol';
import { RecentSessions } from '../context/recent-sessions.js';
import { type ContextStart, carryOf, type TurnCarry } from '../event-log/context-start.js';
import { turnOfBatch } from './batch-id.js';
import { canonicalCall } from './canonical-call.js';

/** One call of a turn as the guards count it: its tool, its arguments as canonical JSON, how often. */
export interface CountedCall {
  name: string;
  args: string;
  count: number;
}

/** What the runaway guards count of a turn's log (decision 0030), through a seq. */
export interface TurnTally {
  turn: string;
  /** The first seq of the log it counted, and the last: a log that does not extend it is counted anew. */
  from: number;
  through: number;
  /** The turn's calls by `callKey`, and the most repeated one. */
  calls: Map<string, CountedCall>;
  top?: CountedCall;
  /** The batches whose result had a successful call. */
  progressed: Set<string>;
  /**
   * What the turn carried from before its context's start (decision 0039): the counts of the calls
   * made before, and its last progress; the events up to `start.through` are then not counted again.
   */
  carried?: TurnCarry;
  /** The last seq `carried` counted (the context start's `through`). */
  carriedThrough?: number;
}

/**
 * The runaway guards' counts of each session's turn, kept per process and extended step by step
 * (issue 39): events never change, so what was counted of a log stays true of any log that extends
 * it, and a step counts only the events logged since the last.
 */
export class TurnTallies {
  readonly #sessions: RecentSessions<TurnTally>;

  constructor(options: { maxSessions?: number } = {}) {
    this.#sessions = new RecentSessions(options.maxSessions);
  }

  /**
   * The tally of `turn` in `log` (the session's, in `seq` order, from seq 1 or from `start.from`):
   * the kept one extended, or counted anew.
   */
  tally(session: string, turn: string, log: readonly StoredEvent[], start?: ContextStart): TurnTally {
    const from = log[0]?.seq ?? 0;
    const through = log.at(-1)?.seq ?? 0;
    const kept = this.#sessions.take(session);
    const carriedThrough = carryOf(start, turn) === undefined ? undefined : start?.through;
    const extends_ =
      kept !== undefined &&
      kept.turn === turn &&
      kept.from === from &&
      kept.through <= through &&
      kept.carriedThrough === carriedThrough;
    // Seqs have no gaps (C2): the events after what was counted start at this index.
    const tally = extends_ ? kept : newTally(turn, from, start);
    countInto(tally, extends_ ? log.slice(kept.through - from + 1) : log);
    this.#sessions.put(session, tally);
    return tally;
  }
}

/** The tally of `turn` in `log`, counted whole (with what the turn carried from before `start`). */
export function tallyOf(turn: string, log: readonly StoredEvent[], start?: ContextStart): TurnTally {
  const tally = newTally(turn, log[0]?.seq ?? 0, start);
  countInto(tally, log);
  return tally;
}

/** The key a call is counted by: a hash of its tool and canonical arguments, short enough to carry. */
export function callKey(call: { name: string; args: string }): string {
  return createHash('sha256').update(`${call.name}\u0000${call.args}`).digest('base64url').slice(0, 16);
}

function newTally(turn: string, from: number, start: ContextStart | undefined): TurnTally {
  const carried = carryOf(start, turn);
  return {
    turn,
    from,
    through: from - 1,
    calls: new Map(),
    progressed: new Set(),
    ...(carried === undefined || start === undefined
      ? {}
      : { carried, carriedThrough: start.through, ...(carried.top ? { top: carried.top } : {}) }),
  };
}

/** Counts `events` into `tally`: the turn's calls, and the batches that made progress. */
function countInto(tally: TurnTally, events: readonly StoredEvent[]): void {
  const carriedThrough = tally.carriedThrough ?? 0;
  for (const stored of events) {
    tally.through = stored.seq;
    const { event, batch } = stored;
    if (batch === undefined || stored.seq <= carriedThrough) continue;
    if (event.type === 'result' && event.payload.success_count > 0) tally.progressed.add(batch);
    if (event.type !== 'call' || turnOfBatch(batch) !== tally.turn) continue;
    const call = canonicalCall(event.content);
    if (call === undefined) continue;
    const key = callKey(call);
    const counted = tally.calls.get(key) ?? { ...call, count: tally.carried?.calls[key] ?? 0 };
    counted.count++;
    tally.calls.set(key, counted);
    if (tally.top === undefined || counted.count > tally.top.count) tally.top = counted;
  }
}
