import * as z from 'zod';
import { workflowEventSchema } from '../workflows/workflow-event.js';

/** Seconds since the Unix epoch, fractional, as in the spec's event schema. */
const timestamp = z.number().nonnegative();
const text = z.string();
const count = z.number().int().nonnegative();

/**
 * A user message; starts a turn. Persisted. Extensions: `instructions` start the system prompt of
 * the turn's model steps (a workflow agent's persona); `model` names the model profile every model
 * step of the turn uses (a workflow agent's `REQUIRES`), instead of the deployment's model.
 */
export const userEventSchema = z.object({
  type: z.literal('user'),
  content: text,
  timestamp,
  instructions: text.optional(),
  model: z.string().min(1).optional(),
});

/** The model's private reasoning from a `<think>` block. Persisted. */
export const thinkEventSchema = z.object({ type: z.literal('think'), content: text, timestamp });

/**
 * One tool invocation; `content` is the JSON text `{"name": …, "args": …}` as the model wrote it,
 * `payload.index` its position in the `<execute>` array. Persisted.
 */
export const callEventSchema = z.object({
  type: z.literal('call'),
  content: text,
  timestamp,
  payload: z.object({ index: count }).optional(),
});

/** The end of an `<execute>` block: the batch is complete and may run. Not persisted. */
export const executeEventSchema = z.object({ type: z.literal('execute'), timestamp });

/**
 * Counts carried by every `result` event (B5), and how long each call's invocation took (ms, in
 * call order; `null` where no invocation produced the item), when any is known.
 */
export const resultPayloadSchema = z.object({
  tools_executed: count,
  success_count: count,
  failure_count: count,
  durations_ms: z.array(z.number().nonnegative().nullable()).optional(),
});

/** A batch's outcomes; `content` is the JSON text of the `<results>` array. Persisted. */
export const resultEventSchema = z.object({
  type: z.literal('result'),
  content: text,
  payload: resultPayloadSchema,
  timestamp,
});

/** User-facing prose. Persisted. */
export const respondEventSchema = z.object({ type: z.literal('respond'), content: text, timestamp });

/** The model wrote `<end>`. Not persisted. */
export const endEventSchema = z.object({ type: z.literal('end'), timestamp });

/** Token usage of one step and of the session so far. */
export const tokenUsageSchema = z.object({ input: count, output: count });

const usd = z.number().nonnegative();

/**
 * What a `metric` adds to the spec's token counts: the model (and its profile), the step's batch
 * (with `purpose: "compaction"` for a compaction's summary before it) and latency, the input
 * tokens read from and written to the prompt cache, and the cost estimate
 * (absent when the price table has no price for the model, or the step's usage is unknown).
 */
export const metricPayloadSchema = z.object({
  model: text,
  /** The model profile the turn asked for, when it named one. */
  profile: text.optional(),
  batch: text,
  /** Set on the tokens a compaction spent summarizing the context before the step `batch` (decision 0035). */
  purpose: z.literal('compaction').optional(),
  latency_ms: count,
  /** Set when the provider reported no usage for the step: its token counts are then 0, not what it billed. */
  usage: z.literal('unknown').optional(),
  cache_read: count,
  cache_write: count,
  cost_usd: usd.optional(),
  total_cost_usd: usd.optional(),
});

/** Observability for one model step: its tokens and the session's so far. Not persisted. */
export const metricEventSchema = z.object({
  type: z.literal('metric'),
  step: tokenUsageSchema,
  total: tokenUsageSchema,
  timestamp,
  payload: metricPayloadSchema.optional(),
});

/**
 * A failure reported to clients. `payload.index` marks an invalid `<execute>` element (A6),
 * `payload.element` is that element's JSON text. Not persisted.
 */
export const errorEventSchema = z.object({
  type: z.literal('error'),
  content: text,
  timestamp,
  payload: z.object({ index: count.optional(), element: text.optional() }).optional(),
});

/** A request to stop the running turn. Not persisted. */
export const interruptEventSchema = z.object({
  type: z.literal('interrupt'),
  content: text.optional(),
  timestamp,
});

/** The turn was cancelled by the user. Persisted. */
export const cancelledEventSchema = z.object({
  type: z.literal('cancelled'),
  content: text.optional(),
  timestamp,
});

/** How a turn ended: it finished, a limit or budget stopped it, it failed, or it was cancelled. */
export const TURN_END_STATUSES = ['done', 'limit', 'failed', 'cancelled'] as const;

/** How a turn ended, as its terminal record says. */
export type TurnEndStatus = (typeof TURN_END_STATUSES)[number];

/**
 * The terminal record of a turn, an extension event like `metric`: every turn ends with exactly
 * one, whatever path ended it. `content` says what happened for people; `payload.error` names the
 * error of a failed turn. Persisted in the log, never sent to the model.
 */
export const turnEndEventSchema = z.object({
  type: z.literal('turn_end'),
  content: text,
  timestamp,
  payload: z.object({
    turn: z.string().min(1),
    status: z.enum(TURN_END_STATUSES),
    error: text.optional(),
  }),
});

/**
 * The first record of a turn, an extension event like `turn_end` (decision 0040): the version of the
 * agent that runs it (`agentVersion`), written once by the turn's first state, on that version. A
 * turn runs on one version from its first step to its last. Persisted in the log, never sent to the model.
 */
export const turnStartEventSchema = z.object({
  type: z.literal('turn_start'),
  content: text,
  timestamp,
  payload: z.object({
    turn: z.string().min(1),
    version: z.string().min(1),
  }),
});

/** Where a call that waits for a person stands: asked, then decided once (or ended without a decision). */
export const APPROVAL_STATUSES = ['requested', 'approved', 'denied', 'expired', 'cancelled'] as const;

/** One of {@link APPROVAL_STATUSES}. */
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * A call that waits for a person, an extension event: one `requested` when its batch is logged,
 * then one decision (`approved`, `denied`) or its end without one (`expired`, `cancelled`).
 * `payload.id` names the approval, `index` the call's position in its batch; `tool` and
 * `expires_at` (seconds since the epoch) come with the request, `reason`, `by` and edited `args`
 * with the decision. Persisted in the log, never sent to the model.
 */
export const approvalEventSchema = z.object({
  type: z.literal('approval'),
  content: text.optional(),
  timestamp,
  payload: z.object({
    id: z.string().min(1),
    index: count,
    status: z.enum(APPROVAL_STATUSES),
    tool: text.optional(),
    expires_at: timestamp.optional(),
    reason: text.optional(),
    by: text.optional(),
    args: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** How a compaction replaced the older part of a session's context: a model's summary, or a note of what was left out. */
export const COMPACTION_STRATEGIES = ['summarize', 'drop'] as const;

/** One of {@link COMPACTION_STRATEGIES}. */
export type CompactionStrategy = (typeof COMPACTION_STRATEGIES)[number];

/**
 * A compaction of the session's context, an extension event (decision 0035): from here on the
 * model sees the system prompt, `payload.summary` and the events after `payload.upToSeq`, never the
 * events up to it, which stay in the log. `tokensBefore`/`tokensAfter` estimate the next request
 * without and with it; `model` wrote the summary (absent for `drop`); `turns` and `calls` count
 * what the events up to `upToSeq` hold. `content` says what happened for people. Persisted, never sent as is.
 */
export const compactedEventSchema = z.object({
  type: z.literal('compacted'),
  content: text,
  timestamp,
  payload: z.object({
    upToSeq: z.number().int().positive(),
    summary: text,
    tokensBefore: count,
    tokensAfter: count,
    model: z.string().min(1).optional(),
    strategy: z.enum(COMPACTION_STRATEGIES),
    turns: count,
    calls: count,
  }),
});

/**
 * The protocol's eleven events in their wire shape, and the `turn_start`, `turn_end`, `approval`,
 * `workflow` and `compacted` extensions (docs/protocol.md, section 2).
 */
export const wireEventSchema = z.discriminatedUnion('type', [
  userEventSchema,
  thinkEventSchema,
  callEventSchema,
  executeEventSchema,
  resultEventSchema,
  respondEventSchema,
  endEventSchema,
  metricEventSchema,
  errorEventSchema,
  interruptEventSchema,
  cancelledEventSchema,
  turnStartEventSchema,
  turnEndEventSchema,
  approvalEventSchema,
  workflowEventSchema,
  compactedEventSchema,
]);

/** An event as clients receive it. */
export type WireEvent = z.infer<typeof wireEventSchema>;
/** The `type` of a wire event. */
export type EventType = WireEvent['type'];
/** The wire event of one type. */
export type WireEventOf<T extends EventType> = Extract<WireEvent, { type: T }>;
