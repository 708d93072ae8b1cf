import {
  pendingApprovals,
  type SessionSummary,
  type StoredEvent,
  type WireEventOf,
} from '@agentstep/protocol';

/** Where a session's turns stand, as its log tells it. */
export interface SessionState {
  /** Turns started (one `user` event each). */
  turns: number;
  /** A turn is running: its `user` event has no `turn_end` after it. */
  running: boolean;
  /** The last turn's terminal record, if one has ended. */
  lastEnd?: WireEventOf<'turn_end'>;
  lastSeq: number;
}

const EMPTY: SessionState = { turns: 0, running: false, lastSeq: 0 };

/**
 * What a session's log says of its turns: from its start, or from `state` on for events stored
 * after it. A fork's log (`forkedAt`: the last seq it shares) may end its prefix amid a turn, at a
 * batch's results: that turn counts as ended there, though no `turn_end` says so.
 */
export function sessionState(
  events: readonly StoredEvent[],
  state: SessionState = EMPTY,
  forkedAt?: number,
): SessionState {
  let { turns, running, lastEnd } = state;
  for (const { seq, event } of events) {
    if (event.type === 'user') {
      turns++;
      running = true;
    } else if (event.type === 'turn_end') {
      running = false;
      lastEnd = event;
    }
    if (seq === forkedAt) running = false;
  }
  return { turns, running, lastSeq: events.at(-1)?.seq ?? state.lastSeq, ...(lastEnd ? { lastEnd } : {}) };
}

/**
 * A session's status from its whole log (and its {@link sessionState}): `idle` when no turn runs,
 * `waiting` while the running turn has a call waiting for a person's decision, else `running`.
 */
export function sessionStatus(
  events: readonly StoredEvent[],
  { running }: SessionState = sessionState(events),
): SessionSummary['status'] {
  if (!running) return 'idle';
  // Only the running turn's approvals count: those logged after its `user` event.
  const turnStart = events.findLastIndex(({ event }) => event.type === 'user');
  return pendingApprovals(events.slice(turnStart + 1)).length > 0 ? 'waiting' : 'running';
}
