import {
  type AdvanceWorkflowInput,
  type StoredEvent,
  WORKFLOW_NEXT,
  type WorkflowRecordOf,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { turnAnswer, turnEndOf } from '../requests/describe-turn.js';
import { type RunLog, recordsOf } from './run-log.js';

/** What the run's child runs that have no `output` record yet came to. */
export interface ChildRunsState {
  /** Their ends, to record: ended turns, and runs of dead executions (abandoned). */
  ended: Array<{ record: WorkflowRecordOf<'output'>; content: string }>;
  /** Runs this execution started whose turns still run (a retried AdvanceWorkflow): wait for them. */
  running: Array<WorkflowRecordOf<'run'>>;
}

/**
 * Looks up each child run without an `output` record in its own session's log: a turn that ended
 * gives its status and final `respond` text; a run started by another execution (one that died) is
 * abandoned, to be run again; one this execution started is still running unless the RunGoals map
 * that ran it is over, when it failed without closing its turn.
 */
export async function childRunsState(
  log: RunLog,
  input: AdvanceWorkflowInput,
  deps: { log: EventLog },
): Promise<ChildRunsState> {
  const recorded = new Set(recordsOf(log, 'output').map(({ record }) => turnKey(record)));
  const open = recordsOf(log, 'run').filter(({ record }) => !recorded.has(turnKey(record)));
  const mapped = new Set(mappedTurns(input).map(turnKey));
  const state: ChildRunsState = { ended: [], running: [] };
  for (const run of open) {
    const { kind: _, ...ids } = run.record;
    const end = ended(await deps.log.read(run.record.session), run.record.turn);
    if (end !== undefined) {
      state.ended.push({ record: { ...ids, kind: 'output', status: end.status }, content: end.answer });
    } else if (run.record.execution !== input.execution) {
      state.ended.push({ record: { ...ids, kind: 'output', status: 'abandoned' }, content: '' });
    } else if (mapped.has(turnKey(run.record))) {
      state.ended.push({ record: { ...ids, kind: 'output', status: 'failed' }, content: '' });
    } else {
      state.running.push(run.record);
    }
  }
  return state;
}

/**
 * The turns the RunGoals map just ran, when this call follows it: over, so one still open failed
 * without closing its turn. Turns this execution started since (a retried call) are not among them.
 */
function mappedTurns(input: AdvanceWorkflowInput): ReadonlyArray<{ session: string; turn: string }> {
  return 'next' in input.state && input.state.next === WORKFLOW_NEXT.goals ? (input.state.goals ?? []) : [];
}

function turnKey({ session, turn }: { session: string; turn: string }): string {
  return `${session}\n${turn}`;
}

function ended(events: readonly StoredEvent[], turn: string) {
  const end = turnEndOf(events, turn);
  if (end === undefined) return undefined;
  return { status: end.payload.status, answer: turnAnswer(events, turn) };
}
