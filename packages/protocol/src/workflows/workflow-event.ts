import * as z from 'zod';
import { workflowSpecSchema } from '../agentfile/workflow-spec.js';

const timestamp = z.number().nonnegative();
const text = z.string();
const name = z.string().min(1);
const positive = z.number().int().positive();

/**
 * Where a record belongs in the run: its slot (a goal's place in the program: `<step>.<goal>`, or
 * `<step>.<iteration>.<goal>` inside a LOOP) and the attempt of that slot it is part of (a
 * correction starts the next attempt).
 */
const slotFields = { slot: name, goal: name, attempt: z.number().int().nonnegative() };

/** What a child run does for its goal: the model phases of a goal attempt. */
export const GOAL_PHASES = [
  'execute',
  'fields',
  'iteration',
  'synthesize',
  'commit',
  'assess',
  'supervise',
] as const;

/** One of {@link GOAL_PHASES}. */
export type GoalPhase = (typeof GOAL_PHASES)[number];

/** How a workflow run ended. */
export const WORKFLOW_END_STATUSES = ['done', 'failed', 'aborted'] as const;

/** How a person answered a human gate, or how the gate ended without one. */
export const GATE_STATUSES = ['waiting', 'approved', 'corrected', 'aborted', 'expired'] as const;

/** One of {@link GATE_STATUSES}. */
export type GateStatus = (typeof GATE_STATUSES)[number];

/** Supervisor verdicts (agentfile.md, Supervision 5). */
export const VERDICTS = ['CONTINUE', 'REORIENT', 'PAUSE'] as const;

/** The run began: the workflow it runs (FROM files inlined) and its inputs, defaults applied. */
const startRecord = z.object({
  kind: z.literal('start'),
  spec: workflowSpecSchema,
  inputs: z.record(z.string(), z.string()),
});

/** A child run began: one turn of the agent loop in `session`, for one phase of a goal attempt. */
const runRecord = z.object({
  kind: z.literal('run'),
  ...slotFields,
  phase: z.enum(GOAL_PHASES),
  agent: name.optional(),
  /** The model profile its turn uses (the agent's `REQUIRES`); the default model when absent. */
  model: name.optional(),
  /** CONVERGE: the iteration, from 1. */
  n: positive.optional(),
  session: name,
  turn: name,
  /** The workflow execution that started it: another execution finds it abandoned. */
  execution: name,
});

/** A child run ended: its turn's status, its final `respond` text as the record's content. */
const outputRecord = runRecord.extend({
  kind: z.literal('output'),
  status: z.enum(['done', 'limit', 'failed', 'cancelled', 'abandoned']),
});

/**
 * A goal completed: its output as the record's content, with the fields its output gave. A USING
 * goal completes with one record per agent (in declared order, `agent` set), and one more without
 * `agent` when it synthesizes; all of a slot's records land in one append.
 */
const goalRecord = z.object({
  kind: z.literal('goal'),
  ...slotFields,
  agent: name.optional(),
  loop: name.optional(),
  iteration: positive.optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  /** `converge_limit`: a CONVERGE goal reached WITHIN without converging. */
  note: z.literal('converge_limit').optional(),
});

/** A supervisor's verdict on a goal attempt; REORIENT's correction or PAUSE's question as content. */
const verdictRecord = z.object({ kind: z.literal('verdict'), ...slotFields, verdict: z.enum(VERDICTS) });

/** A correction for the next attempt of a goal, its text as content. */
const correctionRecord = z.object({
  kind: z.literal('correction'),
  ...slotFields,
  source: z.enum(['supervisor', 'human']),
});

/**
 * A human gate: `waiting` when the run asks (the question or the output to approve as content),
 * then one answer (`approved`, `corrected` with the correction as content, `aborted`) or `expired`.
 */
const gateRecord = z.object({
  kind: z.literal('gate'),
  ...slotFields,
  gate: name,
  status: z.enum(GATE_STATUSES),
  by: text.optional(),
});

/** The run ended; what happened as content, and the error's name when it failed. */
const endRecord = z.object({
  kind: z.literal('end'),
  status: z.enum(WORKFLOW_END_STATUSES),
  error: text.optional(),
});

/** What a workflow record says, by kind. */
export const workflowRecordSchema = z.discriminatedUnion('kind', [
  startRecord,
  runRecord,
  outputRecord,
  goalRecord,
  verdictRecord,
  correctionRecord,
  gateRecord,
  endRecord,
]);

/** One workflow record's payload. */
export type WorkflowRecord = z.infer<typeof workflowRecordSchema>;

/** The workflow record of one kind. */
export type WorkflowRecordOf<K extends WorkflowRecord['kind']> = Extract<WorkflowRecord, { kind: K }>;

/**
 * A workflow run's record, an extension event in the run's own log (a session named by the run):
 * every goal, child run, iteration, verdict, correction and human decision, so any goal's context
 * is rebuilt from the log alone. Persisted, never sent to a model.
 */
export const workflowEventSchema = z.object({
  type: z.literal('workflow'),
  content: text.optional(),
  timestamp,
  payload: workflowRecordSchema,
});
