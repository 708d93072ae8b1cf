import * as z from 'zod';
import type { GateStatus, WorkflowRecordOf } from '../workflows/workflow-event.js';
import { workflowRunIdSchema } from '../workflows/workflow-run-id.js';

/** The longest Agentfile the API takes, in characters (the body's own cap is lower still). */
const MAX_AGENTFILE_CHARS = 200_000;

/**
 * The body of `POST /workflows`: the workflow, as Agentfile text (`FROM` files cannot be read over
 * HTTP: inline them) or as the workflow spec in JSON, and its inputs. A `run` id of the caller's
 * own makes a retried request answer the first one instead of starting a second run.
 */
export const workflowStartBodySchema = z
  .object({
    agentfile: z.string().min(1, 'must not be empty').max(MAX_AGENTFILE_CHARS).optional(),
    spec: z.unknown().optional(),
    inputs: z.record(z.string(), z.string()).default({}),
    run: workflowRunIdSchema.optional(),
  })
  .strict()
  .refine((body) => (body.agentfile === undefined) !== (body.spec === undefined), {
    message: 'send the workflow as exactly one of agentfile (its text) or spec (its JSON)',
    path: ['agentfile'],
  });

/** A workflow run's request body. */
export type WorkflowStartBody = z.input<typeof workflowStartBodySchema>;

/** The answer to a started run: it runs; follow it on its stream, read it at `GET /workflows/{run}`. */
export interface WorkflowAccepted {
  run: string;
  workflow: string;
  status: 'running';
  /** The inputs the run got, defaults applied. */
  inputs: Record<string, string>;
}

/** Where a workflow run stands: `waiting` while a human gate waits for a person. */
export type WorkflowRunStatus = 'running' | 'waiting' | 'done' | 'failed' | 'aborted';

/** A goal's completion, as `GET /workflows/{run}` lists them (oldest first; a re-run is listed again). */
export interface WorkflowGoalOutput {
  goal: string;
  /** The USING agent whose output this is; absent for the goal's own output. */
  agent?: string;
  loop?: string;
  iteration?: number;
  output: string;
  fields?: Record<string, unknown>;
  /** `converge_limit`: a CONVERGE goal reached WITHIN without converging. */
  note?: WorkflowRecordOf<'goal'>['note'];
}

/** A human gate of a run, as it stands now: what it asks while `waiting`, else how it was answered. */
export interface WorkflowGate {
  gate: string;
  goal: string;
  status: GateStatus;
  /** The question or the output to approve (`waiting`), else the correction or note given. */
  text: string;
  by?: string;
}

/** `GET /workflows/{run}`: a run's status, its goals' outputs and its gates. */
export interface WorkflowRunSummary {
  run: string;
  workflow: string;
  status: WorkflowRunStatus;
  inputs: Record<string, string>;
  goals: WorkflowGoalOutput[];
  gates: WorkflowGate[];
  /** How the run ended, once it has. */
  message?: string;
  /** The error's name, when it failed. */
  error?: string;
  /** The `seq` of the newest record of the run's log. */
  lastSeq: number;
}

/** The body of `POST /workflows/{run}/gates/{gate}`: a person's answer at a human gate. */
export const gateDecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'correct', 'abort']),
    /** The correction (`correct`: the goal runs again with it), or a note. */
    text: z.string().max(16_000).optional(),
  })
  .strict()
  .refine((body) => body.decision !== 'correct' || (body.text ?? '').trim() !== '', {
    message: 'a correction needs its text',
    path: ['text'],
  });

/** A gate decision's request body. */
export type GateDecisionBody = z.infer<typeof gateDecisionBodySchema>;

/** The answer to a gate decision: the gate's new status. */
export interface GateDecided {
  run: string;
  gate: string;
  status: GateStatus;
}

/** A workflow run as `GET /workflows` lists it (times in ISO 8601). */
export interface WorkflowRunListItem {
  run: string;
  workflow: string;
  status: WorkflowRunStatus;
  startedAt: string;
  lastSeq: number;
}

/** `GET /workflows`: the caller's workflow runs, newest first; `next` is the next page's `after`, `null` on the last. */
export interface WorkflowRunsList {
  runs: WorkflowRunListItem[];
  next: string | null;
}
