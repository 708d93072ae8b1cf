import type { EventLog } from '../event-log/event-log.js';
import { turnEndKey } from './end-turn.js';

/** How often a running call's turn is read for its end: one small read a second while it runs. */
export const TURN_END_POLL_MS = 1000;

/** A signal that aborts once a turn has ended, and the way to stop watching. */
export interface TurnEndWatch {
  signal: AbortSignal;
  /** Stops reading the turn: call it once the work it bounds has ended. */
  stop(): void;
}

/**
 * Watches `turn` of `session` (as the log stores it) while one of its calls runs: the signal aborts
 * once the turn's end is logged, as when a cancel stopped its execution and closed it (the calls
 * still running in their functions are then told: a remote task is cancelled). Read every
 * `pollMs`; a read that fails is tried again at the next poll, the call going on meanwhile.
 */
export function turnEndSignal(
  log: EventLog,
  { session, turn }: { session: string; turn: string },
  pollMs = TURN_END_POLL_MS,
): TurnEndWatch {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    timer = setTimeout(async () => {
      const ended = await log.appended(session, turnEndKey(turn)).catch(() => undefined);
      if (ended !== undefined) controller.abort(new Error(`Turn ${turn} has ended.`));
      else if (timer !== undefined) poll();
    }, pollMs);
  };
  poll();
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
