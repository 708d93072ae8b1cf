import {
  type CallOutcome,
  type ErrorBody,
  loggedEvent,
  type QueueChange,
  type StoredEvent,
  type WireEventOf,
} from '@agentstep/protocol';
import type { LiveText } from './live-steps.js';

/** One server-sent frame: its data, and the id and event name when it has them. */
export interface Frame {
  id?: string;
  event?: string;
  data: string;
}

/** How a turn's stream ended, as its `done` frame tells. */
export interface StreamEnd {
  status: string;
  turn: string | null;
}

/** The status of a {@link StreamEnd} that ends a turn's stream while the turn waits for a person. */
export const WAITING = 'waiting';

/** How a stream writes a session: AgentStep's own frames, or another protocol's. */
export interface StreamFormat {
  /** Response headers the format adds. */
  readonly headers: Readonly<Record<string, string>>;
  /** The frames of one logged event; `streamed` when its step's text went out as live pieces on this stream. */
  event(stored: StoredEvent, streamed?: boolean): Frame[];
  /**
   * Moves a stateful format on past the events a resuming client already holds (sending nothing),
   * so what follows reads as the continuation of what it has.
   */
  catchUp?(held: readonly StoredEvent[]): void;
  /** The frames of one piece of a model step's text as it streams, before the step is logged (no id). */
  live(text: LiveText): Frame[];
  /** The frames of one model step's metric. */
  metric(metric: WireEventOf<'metric'>): Frame[];
  /**
   * The frames of a call's outcome, read from the outcome store while its batch waits for other
   * calls (its `result` is not logged yet). A stream whose format has this sends each such outcome
   * once, and does not end on a wait ({@link WAITING}) while a call of the batch that waits for no
   * person has none yet. @default none: the format shows outcomes in the batch's `result` only
   */
  outcome?(outcome: CallOutcome): Frame[];
  /** The frames of a change of the session's queue. @default none: the format does not show the queue */
  queue?(change: QueueChange): Frame[];
  /** The last frames, once no turn runs. */
  done(end: StreamEnd): Frame[];
  /** The last frames of a stream that failed: the client may resume from the last id it received. */
  error(body: ErrorBody): Frame[];
}

/** The frames of each stored event as `agentStepFormat` wrote them, while the event is held. */
const eventFrames = new WeakMap<StoredEvent, Frame[]>();

/**
 * AgentStep's own frames: `id: seq`, `event: type`, `data: the event`; metrics without an id; a
 * streaming step's text as `event: think_delta` / `respond_delta`, `data: {"type", "step", "text"}`,
 * without an id (the stored `think`/`respond` that follow carry the whole text); a call's outcome
 * while its batch waits as `event: call_outcome`, without an id (the `result` says it too); the queue's changes
 * as `event: turn_queued` / `turn_started` / `turn_withdrawn`, without an id; `done`; a failed
 * stream's `event: error` with the API's error body, without an id.
 */
export const agentStepFormat: StreamFormat = {
  headers: {},
  event: (stored) => {
    // The streams of a session share its reader's events: each is serialized once for all of them.
    let frames = eventFrames.get(stored);
    if (frames === undefined) {
      frames = [
        { id: String(stored.seq), event: stored.event.type, data: JSON.stringify(loggedEvent(stored)) },
      ];
      eventFrames.set(stored, frames);
    }
    return frames;
  },
  live: ({ kind, step, text }) => {
    const type = `${kind}_delta`;
    return [{ event: type, data: JSON.stringify({ type, step, text }) }];
  },
  metric: (metric) => [{ event: 'metric', data: JSON.stringify(metric) }],
  outcome: (outcome) => [{ event: outcome.type, data: JSON.stringify(outcome) }],
  queue: (change) => [{ event: change.type, data: JSON.stringify(change) }],
  done: (end) => [{ event: 'done', data: JSON.stringify(end) }],
  error: (body) => [{ event: 'error', data: JSON.stringify(body) }],
};
