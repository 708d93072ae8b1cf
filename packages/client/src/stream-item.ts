import type {
  CallOutcome,
  EventType,
  PersistedEventType,
  QueueChange,
  TurnEndStatus,
  WireEvent,
  WorkflowRunStatus,
} from '@agentstep/protocol';
import type { EventSourceMessage } from 'eventsource-parser';
import type { LoggedEvent } from './api-shapes.js';

/**
 * An event off a session's stream: a logged one with its `seq` (the same object `events()` returns),
 * or a transient one such as `metric`, which has none.
 */
export type StreamEvent =
  | { type: PersistedEventType; seq: number; event: LoggedEvent }
  | { type: Exclude<EventType, PersistedEventType>; event: WireEvent };

/**
 * A piece of a model step's text as the model writes it (`agentstep serve` sends them while the step
 * streams): never logged, so without a `seq`; the step's stored `think` or `respond` follows whole.
 */
export interface StreamText {
  type: 'think_delta' | 'respond_delta';
  /** The session's model step index (from 0). */
  step: number;
  text: string;
}

/**
 * The last item of a stream: no turn runs any more, and this is how the last one ended (a workflow
 * run's stream: the run has ended, and how).
 */
export interface StreamDone {
  type: 'done';
  status: TurnEndStatus | Extract<WorkflowRunStatus, 'aborted'>;
  /** The turn that ended, `null` when none has. */
  turn: string | null;
}

/**
 * What a session's stream yields: its events, live text, the outcomes of a batch's calls while the
 * batch waits for others (its `result` follows with the same), queue changes, then one {@link StreamDone}.
 */
export type StreamItem = StreamEvent | StreamText | CallOutcome | QueueChange | StreamDone;

const QUEUE_CHANGES = new Set<string>([
  'turn_queued',
  'turn_started',
  'turn_withdrawn',
] satisfies QueueChange['type'][]);

/** The item one server-sent frame carries: `event: done`, or an event whose `id` (if any) is its seq. */
export function streamItem(frame: EventSourceMessage): StreamItem {
  const data = JSON.parse(frame.data);
  if (frame.event === 'done') return { type: 'done', status: data.status, turn: data.turn };
  if (frame.event === 'think_delta' || frame.event === 'respond_delta')
    return { type: frame.event, step: data.step, text: data.text };
  if (frame.event !== undefined && QUEUE_CHANGES.has(frame.event)) return data as QueueChange;
  if (frame.event === ('call_outcome' satisfies CallOutcome['type'])) return data as CallOutcome;
  if (frame.id === undefined) return { type: data.type, event: data };
  return { type: data.type, seq: Number(frame.id), event: data };
}
