import * as z from 'zod';
import { workflowEventSchema } from '../workflows/workflow-event.js';
import {
  approvalEventSchema,
  callEventSchema,
  cancelledEventSchema,
  compactedEventSchema,
  type EventType,
  respondEventSchema,
  resultEventSchema,
  thinkEventSchema,
  turnEndEventSchema,
  turnStartEventSchema,
  userEventSchema,
} from './wire-event.js';

/**
 * The event types kept in a session's log: the conversation (C1), each turn's first and terminal
 * records (`turn_start`, `turn_end`), the approvals of calls that wait for a person (`approval`), a
 * workflow run's records (`workflow`) and compactions of the context (`compacted`), the last five
 * never sent to the model as they are; all others are transient.
 */
export const PERSISTED_EVENT_TYPES = [
  'user',
  'think',
  'call',
  'result',
  'respond',
  'cancelled',
  'turn_start',
  'turn_end',
  'approval',
  'workflow',
  'compacted',
] as const;

/** A persisted event type. */
export type PersistedEventType = (typeof PERSISTED_EVENT_TYPES)[number];

/** Whether events of this type belong in the conversation log (C1). */
export function isPersistedType(type: EventType): type is PersistedEventType {
  return (PERSISTED_EVENT_TYPES as readonly string[]).includes(type);
}

/** A persisted event in the spec's wire shape. */
export const persistedEventSchema = z.discriminatedUnion('type', [
  userEventSchema,
  thinkEventSchema,
  callEventSchema,
  resultEventSchema,
  respondEventSchema,
  cancelledEventSchema,
  turnStartEventSchema,
  turnEndEventSchema,
  approvalEventSchema,
  workflowEventSchema,
  compactedEventSchema,
]);

/** A persisted wire event. */
export type PersistedEvent = z.infer<typeof persistedEventSchema>;

/**
 * One entry of a session's event log: the wire event plus storage fields, kept apart from it.
 * `seq` is gap-free and strictly increasing per session (C2). `batch` names the model step that
 * produced a `think`, `respond` or `call` (and that a `result` answers); `position` is a call's
 * index in its batch.
 */
export const storedEventSchema = z.object({
  session: z.string().min(1),
  seq: z.number().int().nonnegative(),
  batch: z.string().min(1).optional(),
  position: z.number().int().nonnegative().optional(),
  event: persistedEventSchema,
});

/** A log entry: storage fields around a persisted wire event. */
export type StoredEvent = z.infer<typeof storedEventSchema>;
