import {
  type AdvanceWorkflowInput,
  type GoalTurn,
  goalSessionId,
  WORKFLOW_NEXT,
  type WorkflowRecordOf,
  type WorkflowState,
} from '@agentstep/protocol';
import { WorkflowNotFoundError } from '../errors.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import { submitTurn } from '../steps/submit-turn.js';
import { appendRecords } from './append-records.js';
import { childRunsState } from './child-runs.js';
import { gateEndKey } from './gates.js';
import type { NewRecord, PlannedRun } from './plan.js';
import { planWorkflow } from './plan-workflow.js';
import { type Logged, type RunLog, recordsOf, runLogOf } from './run-log.js';

/** A goal's model steps when the workflow sets no `maxSteps`. */
export const DEFAULT_GOAL_STEPS = 30;

/** Plans settle in a few records each; more rounds than this is a broken planner, not a workflow. */
const MAX_ROUNDS = 1000;

/**
 * AdvanceWorkflow: records how the run's child runs ended, then plans from the log and carries the
 * plan out — records appended, child turns submitted (their user messages first, then the `run`
 * records) — until the run must wait: for child runs (`goals`), a person (`gate`), or never again.
 * Every append is keyed by the log it was planned from, so a retried or redriven call repeats none.
 */
export async function advanceWorkflow(
  input: AdvanceWorkflowInput,
  deps: AppendResultsDeps,
): Promise<WorkflowState> {
  const { run } = input.state;
  await deps.log.acquireTurn(run, run);
  let log = await readRun(run, deps);
  if ('next' in input.state && input.state.next === WORKFLOW_NEXT.gate && input.state.caught !== undefined) {
    log = await expireGate(log, input.state.gate, deps);
  }
  const children = await childRunsState(log, input, deps);
  if (children.running.length > 0) return goalsState(log, children.running);
  for (const ended of children.ended) {
    await appendRecords(log.run, `output:${ended.record.session}:${ended.record.turn}`, [ended], deps);
  }
  if (children.ended.length > 0) log = await readRun(run, deps);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const plan = planWorkflow(log);
    if (plan.kind === 'wait') return { run, next: WORKFLOW_NEXT.gate, gate: plan.gate.record.gate };
    if (plan.kind === 'ended') return endState(run, plan.record);
    if (plan.kind === 'runs') return goalsState(log, await startRuns(log, plan.runs, input.execution, deps));
    await appendRecords(log.run, `records:${lastSeq(log)}`, plan.records, deps);
    log = await readRun(run, deps);
  }
  throw new Error(
    `Workflow run ${run} planned ${MAX_ROUNDS} rounds without waiting: its plan does not settle.`,
  );
}

/** Submits each planned run's turn in its child session, then records the runs; returns them. */
async function startRuns(
  log: RunLog,
  runs: readonly PlannedRun[],
  execution: string,
  deps: AppendResultsDeps,
): Promise<Array<WorkflowRecordOf<'run'>>> {
  const started = recordsOf(log, 'run').length;
  const records = runs.map((planned, index): WorkflowRecordOf<'run'> => {
    const { message: _, instructions: __, session, ...ids } = planned;
    const number = started + index + 1;
    return {
      ...ids,
      kind: 'run',
      session: session ?? goalSessionId(log.run, number),
      turn: `t-${number}`,
      execution,
    };
  });
  await Promise.all(
    records.map(({ session, turn }, index) => {
      const { message, instructions, model } = runs[index] as PlannedRun;
      const persona = instructions ? { instructions } : {};
      const profile = model === undefined ? {} : { model };
      return submitTurn({ session, turn, prompt: message, ...persona, ...profile }, deps);
    }),
  );
  await appendRecords(
    log.run,
    `runs:${lastSeq(log)}`,
    records.map((run) => ({ record: run })),
    deps,
  );
  return records;
}

/** A human gate whose wait timed out: recorded as expired, unless a decision came first. */
async function expireGate(log: RunLog, gate: string | undefined, deps: AppendResultsDeps): Promise<RunLog> {
  const latest = recordsOf(log, 'gate').findLast(({ record }) => record.gate === gate);
  if (latest === undefined || latest.record.status !== 'waiting') return log;
  const { slot, goal, attempt } = latest.record;
  const expired: NewRecord = {
    record: { kind: 'gate', slot, goal, attempt, gate: latest.record.gate, status: 'expired' },
    content: 'Nobody answered in time.',
  };
  await appendRecords(log.run, gateEndKey(latest.record.gate), [expired], deps);
  return readRun(log.run, deps);
}

function goalsState(log: RunLog, runs: ReadonlyArray<WorkflowRecordOf<'run'>>): WorkflowState {
  const maxSteps = log.spec.maxSteps ?? DEFAULT_GOAL_STEPS;
  const goals = runs.map(({ session, turn }): GoalTurn => ({ session, turn, maxSteps }));
  return { run: log.run, next: WORKFLOW_NEXT.goals, goals };
}

function endState(run: string, end: Logged<'end'>): WorkflowState {
  const { status, error } = end.record;
  return { run, next: status, message: end.content, ...(error === undefined ? {} : { error }) };
}

async function readRun(run: string, deps: AppendResultsDeps): Promise<RunLog> {
  const log = runLogOf(run, await deps.log.read(run));
  if (log === undefined) throw new WorkflowNotFoundError(run);
  return log;
}

function lastSeq(log: RunLog): number {
  return log.records.at(-1)?.seq ?? 0;
}
