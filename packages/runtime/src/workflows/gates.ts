import type { AwaitGateInput, GateStatus } from '@agentstep/protocol';
import type { ApprovalTokenStore } from '../approvals/approval-token-store.js';
import type { TaskTokens } from '../approvals/task-tokens.js';
import { wakeWaitingCall } from '../approvals/wake-waiting-call.js';
import type { Clock } from '../clock/clock.js';
import { GateAnsweredError, GateNotFoundError, GateSettledError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { appendRecords } from './append-records.js';
import type { NewRecord } from './plan.js';
import { type Logged, recordsOf, runLogOf } from './run-log.js';

/** A person's answer at a human gate: accept the output, run the goal again with a correction, or stop the run. */
export interface GateDecision {
  run: string;
  gate: string;
  decision: 'approve' | 'correct' | 'abort';
  /** The correction (`correct`), or a note. */
  text?: string;
  /** Who decided (a tenant, an OS user). */
  by?: string;
}

/** What a human gate needs: the log, where tokens are kept, and how a waiting task is woken. */
export interface GateDeps {
  log: EventLog;
  clock: Clock;
  approvalTokens: ApprovalTokenStore;
  taskTokens: TaskTokens;
}

/** What AwaitGate needs: the log, and where tokens are kept. */
export type AwaitGateDeps = Pick<GateDeps, 'log' | 'approvalTokens'>;

/** A gate's decision and a waiting gate's expiry share this key: whichever lands first is the gate's end. */
export function gateEndKey(gate: string): string {
  return `gate:${gate}`;
}

/**
 * AwaitGate: keeps the task token of a run waiting at a human gate (the approvals' token store,
 * under the run), then checks: a gate answered before the token was kept does not wait.
 */
export async function awaitGate(input: AwaitGateInput, deps: AwaitGateDeps): Promise<{ waiting: string }> {
  await deps.approvalTokens.put(input.run, input.gate, input.token);
  const gate = await latestGate(input.run, input.gate, deps.log);
  if (gate.record.status !== 'waiting') throw new GateSettledError(input.run, input.gate);
  return { waiting: input.gate };
}

/**
 * Answers a waiting human gate, once: the decision is a `gate` record in the run's log (with a
 * `correct`, the correction for the goal's next attempt in the same append), then the waiting
 * run is woken. Returns the gate's new status. A gate already answered (or expired) refuses with
 * AlreadyDecided.
 */
export async function decideGate(decision: GateDecision, deps: GateDeps): Promise<GateStatus> {
  const { run, gate } = decision;
  const waiting = await latestGate(run, gate, deps.log);
  if (waiting.record.status !== 'waiting') throw new GateAnsweredError(gate, waiting.record.status);
  const { slot, goal, attempt } = waiting.record;
  const status = ({ approve: 'approved', correct: 'corrected', abort: 'aborted' } as const)[
    decision.decision
  ];
  const by = decision.by === undefined ? {} : { by: decision.by };
  const content = decision.text ?? '';
  const records: NewRecord[] = [
    { record: { kind: 'gate', slot, goal, attempt, gate, status, ...by }, content },
  ];
  if (decision.decision === 'correct') {
    const correction = {
      kind: 'correction' as const,
      slot,
      goal,
      attempt: attempt + 1,
      source: 'human' as const,
    };
    records.push({ record: correction, content });
  }
  await deps.log.acquireTurn(run, run);
  const appended = await appendRecords(run, gateEndKey(gate), records, deps);
  // Another answer (or the expiry) took the gate between the read and the append.
  if (appended.replayed) {
    const landed = await latestGate(run, gate, deps.log);
    if (landed.record.status !== status) throw new GateAnsweredError(gate, landed.record.status);
  }
  await wakeWaitingCall(run, gate, deps);
  return status;
}

async function latestGate(run: string, gate: string, log: EventLog): Promise<Logged<'gate'>> {
  const runLog = runLogOf(run, await log.read(run));
  const latest = runLog && recordsOf(runLog, 'gate').findLast(({ record }) => record.gate === gate);
  if (latest === undefined) throw new GateNotFoundError(run, gate);
  return latest;
}
