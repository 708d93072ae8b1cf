import * as z from 'zod';
import { TURN_END_STATUSES } from '../events/wire-event.js';
import { sessionIdSchema } from './session-id.js';
import { budgetSchema, toolExecutionSchema, turnLimitsSchema } from './step-payloads.js';

/** The longest `requestId`: an EventBridge event id, an SQS message id or any caller's key. */
export const MAX_REQUEST_ID_LENGTH = 256;

/**
 * What an AWS service starts a turn with: the agent state machine's execution input (EventBridge
 * rules and schedules, a parent state machine, a queue through Pipes, `agentstep invoke`). StartTurn
 * creates the session when it is absent, appends the message and runs the turn. A `requestId` makes
 * the start idempotent: another execution with the same one starts no second turn and ends with the
 * first one's outcome. `tenant` is the API tenant the session belongs to.
 */
export const turnRequestSchema = z
  .object({
    message: z.string().min(1, 'must not be empty'),
    session: sessionIdSchema.optional(),
    tenant: z.string().min(1).max(256).optional(),
    requestId: z.string().min(1).max(MAX_REQUEST_ID_LENGTH).optional(),
    maxSteps: turnLimitsSchema.shape.maxSteps.optional(),
    stepsPerExecution: turnLimitsSchema.shape.stepsPerExecution.optional(),
    budget: budgetSchema.optional(),
    toolExecution: toolExecutionSchema.optional(),
  })
  .strict();

/** A turn's execution input, as AWS services send it. */
export type TurnRequest = z.infer<typeof turnRequestSchema>;

/** A turn's tokens and estimated cost (absent when a model used has no price). */
export const turnUsageSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative().optional(),
});

/**
 * How a turn ended, as its first execution's output gives it (even when the turn went on in fresh
 * executions): the session as the caller named it, the turn's terminal status, its final `respond`
 * text (`answer`, empty when it gave none; at most MAX_ANSWER_CHARS), its usage, the caller's
 * `requestId` and tenant. The event that announces the turn's end carries it as its detail.
 */
export const turnResultSchema = z.object({
  session: sessionIdSchema,
  turn: z.string().min(1),
  status: z.enum(TURN_END_STATUSES),
  answer: z.string(),
  usage: turnUsageSchema,
  /** What happened, for people: the terminal record's text (which limit, which error). */
  message: z.string(),
  requestId: z.string().optional(),
  /** The API tenant whose session it is, when the turn was asked for as one. */
  tenant: z.string().optional(),
});

/** A turn's execution output. */
export type TurnResult = z.infer<typeof turnResultSchema>;

/** The `source` of the events that announce a turn's end on EventBridge. */
export const TURN_EVENT_SOURCE = 'agentstep';

/** Their detail types: a turn that ended `failed`, or any other end. The detail is its `TurnResult`. */
export const TURN_EVENT_TYPES = {
  completed: 'Agent Turn Completed',
  failed: 'Agent Turn Failed',
} as const;

/**
 * The detail types of a workflow run's end on the event bus (source {@link TURN_EVENT_SOURCE}): a
 * run that failed, or one that ended `done` or `aborted`. The detail is `{run, status, message}`,
 * with `error` when it failed; `run` is the run's id as stored (under its tenant's tag over HTTP).
 */
export const WORKFLOW_EVENT_TYPES = {
  completed: 'Workflow Run Completed',
  failed: 'Workflow Run Failed',
} as const;

/** The longest `answer` a turn result carries (an EventBridge event and a state's output have limits). */
export const MAX_ANSWER_CHARS = 32_000;
