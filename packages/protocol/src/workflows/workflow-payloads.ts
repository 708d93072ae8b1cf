import * as z from 'zod';
import { sessionIdSchema } from '../payloads/session-id.js';

/** Where the workflow state machine goes after AdvanceWorkflow, as its Choice reads `next`. */
export const WORKFLOW_NEXT = {
  /** Run `goals` (child executions of the agent state machine), then advance again. */
  goals: 'goals',
  /** Wait at the human gate `gate` for a decision, then advance again. */
  gate: 'gate',
  done: 'done',
  failed: 'failed',
  aborted: 'aborted',
} as const;

/** A workflow execution's input: the run, whose log holds its workflow and inputs. */
export const workflowExecutionInputSchema = z.object({ run: sessionIdSchema }).strict();

/** A workflow execution's input. */
export type WorkflowExecutionInput = z.infer<typeof workflowExecutionInputSchema>;

/** One child turn a goal runs: a submitted turn of the agent state machine (its StartTurn input). */
export const goalTurnSchema = z.object({
  session: sessionIdSchema,
  turn: z.string().min(1),
  maxSteps: z.number().int().positive(),
});

/** One child turn. */
export type GoalTurn = z.infer<typeof goalTurnSchema>;

/**
 * The workflow state machine's state, as AdvanceWorkflow returns it: references only (the run's
 * log holds everything else), and where to go next.
 */
export const workflowStateSchema = z.object({
  run: sessionIdSchema,
  next: z.enum(Object.values(WORKFLOW_NEXT) as [string, ...string[]]),
  goals: z.array(goalTurnSchema).optional(),
  gate: z.string().optional(),
  /** How the run ended, for `done`, `failed` and `aborted`. */
  message: z.string().optional(),
  error: z.string().optional(),
});

/** The workflow state machine's state. */
export type WorkflowState = z.infer<typeof workflowStateSchema>;

/**
 * AdvanceWorkflow's input: the state it left (a caught error under `caught`), or the execution's
 * input the first time, and the execution's name, which tells its own child runs from abandoned ones.
 */
export const advanceWorkflowInputSchema = z.object({
  state: z.union([
    workflowStateSchema.extend({ caught: z.unknown().optional() }),
    workflowExecutionInputSchema,
  ]),
  execution: z.string().min(1),
});

/** AdvanceWorkflow's input. */
export type AdvanceWorkflowInput = z.infer<typeof advanceWorkflowInputSchema>;

/** AwaitGate's input: the run and gate, and the task token a decision sends success to. */
export const awaitGateInputSchema = z.object({
  run: sessionIdSchema,
  gate: z.string().min(1),
  token: z.string().min(1),
});

/** AwaitGate's input. */
export type AwaitGateInput = z.infer<typeof awaitGateInputSchema>;

/** The workflow state machine's state names. */
export const WORKFLOW_STATE_NAMES = {
  advance: 'AdvanceWorkflow',
  route: 'WorkflowRoute',
  runGoals: 'RunGoals',
  runGoal: 'RunGoal',
  goalStopped: 'GoalStopped',
  awaitGate: 'AwaitGate',
  publishCompleted: 'PublishRunCompleted',
  publishFailed: 'PublishRunFailed',
  done: 'WorkflowDone',
  failed: 'WorkflowFailed',
} as const;
