import * as z from 'zod';
import { sessionIdSchema } from './session-id.js';

const ref = z.string().min(1).max(256);
const count = z.number().int().nonnegative();

/** Where the loop goes next, as ModelStep and AdvanceTurn set `next` and the Route state reads it. */
export const NEXT = {
  /** Run the batch's calls. */
  tools: 'tools',
  /** Only record a batch failure. */
  results: 'results',
  /** The turn is over (A9). */
  finish: 'finish',
  /** A budget or the step limit stopped the turn. */
  limit: 'limit',
  /** Take the next model step. */
  model: 'model',
  /** Go on in a fresh execution (ContinueAsNew). */
  continue: 'continue',
  /** The turn was asked to stop: end it as cancelled, its open batch closed. */
  cancelled: 'cancelled',
} as const;

/** Limits of one turn, fixed when it starts. */
export const turnLimitsSchema = z.object({
  /** Model steps one turn may take before it is stopped. */
  maxSteps: z.number().int().min(1).max(10_000),
  /** Model steps per Step Functions execution before the loop continues in a fresh one. */
  stepsPerExecution: z.number().int().min(1).max(1_000),
});

/**
 * Runaway guards of one turn (decision 0030), fixed when it starts: checked from the turn's log
 * before each model step, so a turn stuck in a loop stops with status `limit` before it pays for
 * another step.
 */
export const runawayLimitsSchema = z.object({
  /** Calls of one tool with the same arguments (key order ignored) that stop the turn: `RepeatedCall`. */
  repeatedCalls: z.number().int().min(2).max(1_000),
  /** Model steps in a row without a successful call that stop the turn: `NoProgress`. */
  stepsWithoutProgress: z.number().int().min(1).max(10_000),
});

/** Runaway guards used when the agent sets none. */
export const DEFAULT_RUNAWAY_LIMITS = { repeatedCalls: 3, stepsWithoutProgress: 10 } as const;

/**
 * What a session may spend before its turns stop: tokens (input + output, all turns), estimated
 * cost in US dollars (all turns), and the wall-clock seconds of one turn. Checked before each model
 * step; an empty budget never stops anything.
 */
export const budgetSchema = z
  .object({
    maxTokens: z.number().int().positive(),
    maxCostUsd: z.number().positive(),
    maxWallSeconds: z.number().int().positive(),
  })
  .partial()
  .strict();

/** How a batch's calls run (B3): at once, or one after another as the older spec had it. */
export const toolExecutionSchema = z.enum(['parallel', 'sequential']);

/** Limits used when neither the execution input nor the deployment sets them. */
export const DEFAULT_TURN_LIMITS = { maxSteps: 50, stepsPerExecution: 25 } as const;

/**
 * Who asked for a turn (the API, or an AWS service through `turnRequestSchema`): the session as
 * they named it, their `requestId` and their tenant, carried to the turn's result.
 */
export const requesterSchema = z.object({
  session: sessionIdSchema,
  requestId: z.string().optional(),
  tenant: z.string().optional(),
});

/**
 * What starts a turn's execution, after the client appended the user message. References and
 * optional limits only: no prompt ever travels through Step Functions state.
 */
export const turnInputSchema = z
  .object({ session: sessionIdSchema, turn: ref, toolExecution: toolExecutionSchema.optional() })
  .extend(turnLimitsSchema.partial().shape)
  .extend({ budget: budgetSchema.optional(), request: requesterSchema.nullable().optional() });

/** DescribeTurn's input: the turn, and who asked for it (`null` for a turn started without saying). */
export const describeTurnInputSchema = z.object({
  session: sessionIdSchema,
  turn: ref,
  request: requesterSchema.nullable().optional(),
});

/** StartTurn's input: a new turn, or one continued in a fresh execution with its counters. */
export const startTurnInputSchema = turnInputSchema.extend({
  step: z.number().int().nonnegative().optional(),
  turnSteps: z.number().int().nonnegative().optional(),
  startedAt: z.number().nonnegative().optional(),
});

/** The state carried from step to step: references and counters only. */
export const loopStateSchema = z
  .object({ session: sessionIdSchema, turn: ref, toolExecution: toolExecutionSchema })
  .extend(turnLimitsSchema.shape)
  // Optional: a state from before the guards existed gets the defaults.
  .extend(runawayLimitsSchema.partial().shape)
  .extend({
    /** Index in the session of the next model step, from 0. */
    step: count,
    /** Model steps this turn has taken. */
    turnSteps: count,
    /** Model steps this execution has taken. */
    executionSteps: count,
    /** Calls this execution has run, for its history's budget (see `historyNearlyFull`). */
    executionCalls: count,
    /** The session's budget; always present (maybe empty), so ContinueAsNew can pass it on. */
    budget: budgetSchema,
    /** When the turn started, in milliseconds since the epoch, for the wall-clock budget. */
    startedAt: z.number().nonnegative(),
    /** Who asked for the turn through the execution contract; `null` for a turn started otherwise. */
    request: requesterSchema.nullable(),
  });

/** The longest call carried in its map item (`CallItem.call`), in UTF-8 bytes of its JSON in the state. */
export const INLINE_CALL_BYTES = 8 * 1024;
/** The most call text one batch carries in its map items, in UTF-8 bytes: well within Step Functions' 256 KB state. */
export const INLINE_CALLS_BYTES = 64 * 1024;

/** One call of a batch, as the RunTools map hands it to InvokeTool. */
export const callItemSchema = z.object({
  position: count,
  /** `seq` of the call event, so InvokeTool reads one event, not the whole log. */
  seq: z.number().int().positive(),
  /** The Lambda function that runs this call's tool. */
  target: ref,
  /**
   * The approval the call waits on before it runs, `null` when its tool needs none (ModelStep sets
   * it on every call, so the map's item selector always finds it).
   */
  approval: ref.nullable().optional(),
  /**
   * The call as the model wrote it (the stored event's JSON text) when it is small, so InvokeTool
   * reads no event; `null` when it is large and InvokeTool reads it from the log (ModelStep sets it
   * on every call, within {@link INLINE_CALLS_BYTES} per batch, so the map's item selector finds it).
   */
  call: z.string().max(INLINE_CALL_BYTES).nullable().optional(),
});

/** What ModelStep hands on: the batch it appended and where the loop goes next. */
export const modelStepOutputSchema = loopStateSchema.extend({
  batch: ref,
  calls: z.array(callItemSchema),
  /** Positions that will have a result: the calls, or 1 for a batch-level failure (A6). */
  count,
  /** How many calls of the batch may run at once: 1 when a call's tool runs alone (B3). */
  concurrency: z.number().int().min(1).max(40),
  /**
   * `tools`: run the calls; `results`: only record a batch failure; `finish`: the turn is over
   * (A9); `model`: the model returned nothing, ask it again in the next step (A12); `limit`: the
   * budget or the step limit is spent; `cancelled`: the turn was asked to stop (before the model
   * step, or before its calls ran).
   */
  next: z.enum([NEXT.tools, NEXT.results, NEXT.finish, NEXT.model, NEXT.limit, NEXT.cancelled]),
  /** With `limit`: which limit ended the turn, for people. */
  limit: z.string().optional(),
});

/**
 * InvokeTool's input: the call and the batch it belongs to, and the ARN of the state machine whose
 * execution runs it (`$$.StateMachine.Id`), where sub-agents start: from the execution, not the
 * tools function's environment, which could not name the state machine that invokes it.
 */
export const invokeToolInputSchema = callItemSchema.extend({
  session: sessionIdSchema,
  turn: ref,
  batch: ref,
  stateMachine: ref.optional(),
  /** How many calls the batch has: how much of its outcome each may carry back (`CallResult`). */
  count: z.number().int().positive().optional(),
});

/** The most outcome JSON one batch's calls carry back through the map, in UTF-8 bytes. */
export const INLINE_OUTCOMES_BYTES = 32 * 1024;
/** The most outcome JSON one call carries back through the map, in UTF-8 bytes. */
export const INLINE_OUTCOME_BYTES = 4 * 1024;

/**
 * What one call's map item gives back (InvokeTool's, or RecordToolFailure's, answer): its status,
 * and its stored outcome when small enough to carry (`null` otherwise: AdvanceTurn reads it), so
 * closing the batch reads no outcomes when every call carried its own.
 */
export const callResultSchema = z.object({
  position: z.number().int().nonnegative(),
  status: z.enum(['success', 'failure']),
  outcome: z
    .object({
      tool: z.string(),
      status: z.enum(['success', 'failure']),
      content: z.unknown(),
      ms: z.number().optional(),
    })
    .nullable()
    .optional(),
});

/** AdvanceTurn's input: the model step's output, and what its calls gave back (RunTools' results). */
export const advanceTurnInputSchema = modelStepOutputSchema.extend({
  outcomes: z.array(callResultSchema).optional(),
});

/**
 * AwaitApproval's input: a call whose approval it waits on, and the task token that a decision
 * sends the task's success to (kept server-side, never logged).
 */
export const awaitApprovalInputSchema = invokeToolInputSchema.extend({
  approval: ref,
  token: z.string().min(1).max(4_096),
});

/** ExpireApproval's input: a call whose approval timed out. */
export const expireApprovalInputSchema = invokeToolInputSchema.extend({ approval: ref });

/** What closing a batch (AdvanceTurn's first half) hands on: the next loop state and where to go. */
export const closedBatchSchema = loopStateSchema.extend({
  /** `model`: next step; `continue`: go on in a fresh execution; `limit`: maxSteps reached. */
  next: z.enum([NEXT.model, NEXT.continue, NEXT.limit]),
});

/** The error Step Functions caught, as a `Catch` with `ResultPath: $.error` stores it. */
export const caughtErrorSchema = z.object({ Error: z.string().optional(), Cause: z.string().optional() });

/** RecordToolFailure's input: the call whose tool function failed, and the error. */
export const recordToolFailureInputSchema = invokeToolInputSchema.extend({ error: caughtErrorSchema });

/**
 * FinishTurn's input: the turn, and `next: "limit"` when the step limit or a budget ended it, or
 * `next: "cancelled"` when it was asked to stop.
 */
export const finishTurnInputSchema = z.object({
  session: sessionIdSchema,
  turn: ref,
  maxSteps: z.number().int(),
  next: z.string().optional(),
  /** Which budget ran out; without it, `limit` means the step limit. */
  limit: z.string().optional(),
  /** Who asked for the turn, as the loop state carries it: the result it describes names them. */
  request: requesterSchema.nullable().optional(),
});

/**
 * FailTurn's (and ReleaseTurn's) input: the state at the failure and the error; the open batch is
 * found in the log.
 */
export const failTurnInputSchema = z.object({
  session: sessionIdSchema,
  turn: ref,
  error: caughtErrorSchema,
  /** Who asked for the turn, as the loop state carries it: the result it describes names them. */
  request: requesterSchema.nullable().optional(),
});

/** AdvanceTurn's output: the next model step, or the loop state when the loop must stop or move. */
export const advanceTurnOutputSchema = z.union([
  modelStepOutputSchema,
  closedBatchSchema.extend({ next: z.enum([NEXT.continue, NEXT.limit]) }),
]);

/**
 * How FinishTurn ended a turn (the execution's output is DescribeTurn's `TurnResult`, read from the
 * log, whatever path ended the turn).
 */
export const turnOutputSchema = z.object({
  session: sessionIdSchema,
  turn: ref,
  status: z.enum(['finished', 'limit', 'failed', 'cancelled']),
  message: z.string().optional(),
});

/** What a session may spend. */
export type Budget = z.infer<typeof budgetSchema>;
/** Limits of one turn. */
export type TurnLimits = z.infer<typeof turnLimitsSchema>;
/** Runaway guards of one turn (see {@link runawayLimitsSchema}). */
export type RunawayLimits = z.infer<typeof runawayLimitsSchema>;
/** Input of a turn's execution. */
export type TurnInput = z.infer<typeof turnInputSchema>;
/** State between steps. */
export type LoopState = z.infer<typeof loopStateSchema>;
/** One call of a batch. */
export type CallItem = z.infer<typeof callItemSchema>;
/** ModelStep's output. */
export type ModelStepOutput = z.infer<typeof modelStepOutputSchema>;
/** What one call's map item gives back. */
export type CallResult = z.infer<typeof callResultSchema>;
/** AdvanceTurn's input. */
export type AdvanceTurnInput = z.infer<typeof advanceTurnInputSchema>;
/** InvokeTool's input. */
export type InvokeToolInput = z.infer<typeof invokeToolInputSchema>;
/** Who asked for a turn. */
export type Requester = z.infer<typeof requesterSchema>;
/** DescribeTurn's input. */
export type DescribeTurnInput = z.infer<typeof describeTurnInputSchema>;
/** AwaitApproval's input. */
export type AwaitApprovalInput = z.infer<typeof awaitApprovalInputSchema>;
/** ExpireApproval's input. */
export type ExpireApprovalInput = z.infer<typeof expireApprovalInputSchema>;
/** A closed batch's next loop state. */
export type ClosedBatch = z.infer<typeof closedBatchSchema>;
/** How a turn ended. */
export type TurnOutput = z.infer<typeof turnOutputSchema>;
/** The error a `Catch` stored. */
export type CaughtError = z.infer<typeof caughtErrorSchema>;
/** RecordToolFailure's input. */
export type RecordToolFailureInput = z.infer<typeof recordToolFailureInputSchema>;
/** FinishTurn's input. */
export type FinishTurnInput = z.infer<typeof finishTurnInputSchema>;
/** FailTurn's input. */
export type FailTurnInput = z.infer<typeof failTurnInputSchema>;
/** StartTurn's input. */
export type StartTurnInput = z.infer<typeof startTurnInputSchema>;
/** AdvanceTurn's output. */
export type AdvanceTurnOutput = z.infer<typeof advanceTurnOutputSchema>;
