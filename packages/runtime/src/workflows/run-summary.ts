import type {
  WorkflowGate,
  WorkflowGoalOutput,
  WorkflowRunStatus,
  WorkflowRunSummary,
} from '@agentstep/protocol';
import { type Logged, type RunLog, recordsOf } from './run-log.js';

/**
 * A run as its log tells it, for people and clients: its status (its end's, else `waiting` while a
 * gate waits, else `running`), every goal completion oldest first, and each gate as it stands now.
 * `run` is the id the caller knows the run by.
 */
export function workflowRunSummary(log: RunLog, run: string): WorkflowRunSummary {
  const end = recordsOf(log, 'end').at(-1);
  const gates = latestGates(log).map(gateOf);
  const status: WorkflowRunStatus =
    end?.record.status ?? (gates.some((gate) => gate.status === 'waiting') ? 'waiting' : 'running');
  return {
    run,
    workflow: log.spec.name,
    status,
    inputs: { ...log.inputs },
    goals: recordsOf(log, 'goal').map(goalOf),
    gates,
    ...(end === undefined ? {} : { message: end.content }),
    ...(end?.record.error === undefined ? {} : { error: end.record.error }),
    lastSeq: log.records.at(-1)?.seq ?? 0,
  };
}

/** Each gate's latest record, in the order the gates first asked. */
function latestGates(log: RunLog): Array<Logged<'gate'>> {
  const latest = new Map<string, Logged<'gate'>>();
  for (const logged of recordsOf(log, 'gate')) latest.set(logged.record.gate, logged);
  return [...latest.values()];
}

function goalOf({ record, content }: Logged<'goal'>): WorkflowGoalOutput {
  const { goal, agent, loop, iteration, fields, note } = record;
  return {
    goal,
    ...(agent === undefined ? {} : { agent }),
    ...(loop === undefined ? {} : { loop }),
    ...(iteration === undefined ? {} : { iteration }),
    output: content,
    ...(fields === undefined ? {} : { fields }),
    ...(note === undefined ? {} : { note }),
  };
}

function gateOf({ record, content }: Logged<'gate'>): WorkflowGate {
  const { gate, goal, status, by } = record;
  return { gate, goal, status, text: content, ...(by === undefined ? {} : { by }) };
}
