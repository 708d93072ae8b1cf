import type { QueuedTurn, SessionSummary, StoredEvent } from '@agentstep/protocol';
import { type QueuedMessage, sessionSpend } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { isoTime } from './iso-time.js';
import { sessionState, sessionStatus } from './session-state.js';
import { sessionTitle } from './session-title.js';

/**
 * Where a session's turns stand and what it spent, as `GET /sessions/{id}` answers: `session` is
 * the tenant's id; `title` its first message, shortened; `lastTurn` the last turn that ended and its status (`null` before one has); a
 * fork's `forkedFrom` names its parent as the tenant knows it; `queued` the messages waiting for
 * their turns, in start order.
 */
export async function sessionSummary(
  session: { id: string; stored: string; events: readonly StoredEvent[] },
  deps: Pick<ApiDeps, 'log' | 'usage' | 'queue'>,
): Promise<SessionSummary> {
  const [origin, usage, queued] = await Promise.all([
    deps.log.origin(session.stored),
    deps.usage.list(session.stored),
    deps.queue.list(session.stored),
  ]);
  const state = sessionState(session.events, undefined, origin?.seq);
  const spend = sessionSpend(usage);
  // A fork's parent is the same tenant's: its stored id holds the same tag.
  const tag = session.stored.slice(0, session.stored.length - session.id.length);
  return {
    session: session.id,
    title: sessionTitle(session.events),
    status: sessionStatus(session.events, state),
    turns: state.turns,
    lastSeq: state.lastSeq,
    lastTurn: state.lastEnd
      ? { turn: state.lastEnd.payload.turn, status: state.lastEnd.payload.status }
      : null,
    versions: turnVersions(session.events),
    usage: {
      input: spend.inputTokens,
      output: spend.outputTokens,
      ...(spend.unpriced ? {} : { costUsd: spend.costUsd }),
    },
    ...(origin ? { forkedFrom: { session: origin.session.slice(tag.length), seq: origin.seq } } : {}),
    queued: queued.map(queuedTurn),
  };
}

/** A queued message as the API lists it, at its 1-based place in `queue`'s start order. */
export function queuedTurn(message: QueuedMessage, index: number): QueuedTurn {
  return {
    turn: message.turn,
    message: message.prompt,
    position: index + 1,
    queuedAt: isoTime(message.queuedAt),
  };
}

/** Each turn's agent version, as its `turn_start` recorded it, oldest first. */
function turnVersions(events: readonly StoredEvent[]): SessionSummary['versions'] {
  return events.flatMap(({ event }) =>
    event.type === 'turn_start' ? [{ turn: event.payload.turn, version: event.payload.version }] : [],
  );
}
