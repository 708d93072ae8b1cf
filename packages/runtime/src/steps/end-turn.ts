import type { TurnEndStatus } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog, NewEvent } from '../event-log/event-log.js';

/** How a turn ended, for its terminal record. */
export interface TurnEnd {
  session: string;
  turn: string;
  status: TurnEndStatus;
  /** What happened, for people. */
  message: string;
  /** The error that ended a failed turn, by name. */
  error?: string;
}

/** The idempotency key of a turn's terminal record: one per turn, whoever writes it. */
export function turnEndKey(turn: string): string {
  return `end:${turn}`;
}

/** What a cancelled turn's `cancelled` event says. */
const CANCELLED_BY_USER = 'Cancelled by the user.';

/**
 * Ends a turn: appends its terminal `turn_end` record, after one `cancelled` event when the user
 * cancelled it (C1), and frees the session in one atomic write. Written once per turn whatever
 * path ends it: a second end, a redelivery, or an end after a take-over already closed the turn
 * (same key) writes nothing, so a turn never has two `cancelled` events.
 */
export async function endTurn(end: TurnEnd, deps: { log: EventLog; clock: Clock }): Promise<void> {
  const record = turnEndRecord(end, deps.clock);
  const cancelled: NewEvent = {
    event: { type: 'cancelled', content: CANCELLED_BY_USER, timestamp: record.event.timestamp },
  };
  await deps.log.append({
    session: end.session,
    turn: end.turn,
    key: turnEndKey(end.turn),
    release: true,
    events: end.status === 'cancelled' ? [cancelled, record] : [record],
  });
}

/** A turn's terminal record, as the log stores it. */
export function turnEndRecord(end: TurnEnd, clock: Clock): NewEvent {
  const payload = { turn: end.turn, status: end.status, ...(end.error ? { error: end.error } : {}) };
  return { event: { type: 'turn_end', content: end.message, payload, timestamp: clock.now() / 1000 } };
}
