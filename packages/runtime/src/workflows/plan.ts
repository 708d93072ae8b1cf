import type { GoalPhase, WorkflowRecord } from '@agentstep/protocol';
import type { Logged } from './run-log.js';

/** A child run the run needs next: one turn of the agent loop for one phase of a goal attempt. */
export interface PlannedRun {
  slot: string;
  goal: string;
  attempt: number;
  phase: GoalPhase;
  agent?: string;
  n?: number;
  /** The turn's user message: the goal's document, or a phase's prompt. */
  message: string;
  /** The persona of a USING agent: the run's system prompt starts with it. */
  instructions?: string;
  /** The model profile a USING agent `REQUIRES`: every step of the run uses it. */
  model?: string;
  /** The child session a corrective retry goes on in, as its next turn; else a new one. */
  session?: string;
}

/** A record to append to the run's log. */
export interface NewRecord {
  record: WorkflowRecord;
  content?: string;
}

/** What a workflow run does next, as its log says. */
export type Plan =
  | { kind: 'runs'; runs: PlannedRun[] }
  | { kind: 'record'; records: NewRecord[] }
  | { kind: 'wait'; gate: Logged<'gate'> }
  | { kind: 'ended'; record: Logged<'end'> };

/** The plan that ends the run as failed, with the error's name and what happened. */
export function failed(error: string, message: string): Plan {
  return {
    kind: 'record',
    records: [{ record: { kind: 'end', status: 'failed', error }, content: message }],
  };
}
