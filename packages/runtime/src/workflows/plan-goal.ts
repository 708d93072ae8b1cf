import { renderContext } from '@agentstep/protocol';
import { type Attempt, AttemptOutputs } from './attempt-outputs.js';
import { type Executed, executeGoal } from './execute-goal.js';
import { type Correction, goalContext } from './goal-context.js';
import { parseVerdict } from './parse-verdict.js';
import { failed, type NewRecord, type Plan } from './plan.js';
import { reconcile } from './reconcile.js';
import { type Logged, type RunLog, recordsOf } from './run-log.js';
import { assessMessage, commitMessage, superviseMessage } from './supervision-prompts.js';
import type { Slot } from './workflow-slots.js';

/** How many times a supervisor may send a goal back (REORIENT) before its output is taken as is. */
export const MAX_REORIENTS = 2;

/**
 * What one goal slot needs next: its current attempt (one per correction) runs COMMIT when
 * supervised, EXECUTE, then ASSESS, RECONCILE and SUPERVISE when supervised, then waits at a human
 * gate when the goal is SUPERVISED HUMAN (or its supervisor said PAUSE); then it completes.
 */
export function planGoal(log: RunLog, slot: Slot): Plan {
  const corrections = recordsOf(log, 'correction').filter(({ record }) => record.slot === slot.id);
  const at: Attempt = { slot: slot.id, goal: slot.goal.name, attempt: corrections.length };
  const latest = corrections.at(-1);
  const correction: Correction | undefined = latest && { source: latest.record.source, text: latest.content };
  const outputs = new AttemptOutputs(log, at);
  const supervised = slot.supervision !== 'none';
  const commit = outputs.get('commit');
  if (supervised && commit === undefined) {
    const document = renderContext(goalContext(log, slot, correction ? { correction } : {}));
    return {
      kind: 'runs',
      runs: [{ ...at, phase: 'commit', message: commitMessage(slot.goal.name, document) }],
    };
  }
  const executed = executeGoal({ log, slot, at, outputs, ...(correction ? { correction } : {}) });
  if ('plan' in executed) return executed.plan;
  if (!supervised) return complete(executed);
  return supervise(log, slot, at, outputs, executed, commit?.content ?? '');
}

function supervise(
  log: RunLog,
  slot: Slot,
  at: Attempt,
  outputs: AttemptOutputs,
  executed: Executed,
  commitment: string,
): Plan {
  const assess = outputs.get('assess');
  if (assess === undefined) {
    return {
      kind: 'runs',
      runs: [{ ...at, phase: 'assess', message: assessMessage(slot.goal.name, commitment, executed.output) }],
    };
  }
  const triggers = reconcile(commitment, assess.content);
  const verdict = latestOf(recordsOf(log, 'verdict'), at);
  if (verdict === undefined && (triggers.length > 0 || slot.supervision === 'human')) {
    const answer = outputs.get('supervise');
    if (answer === undefined) {
      return {
        kind: 'runs',
        runs: [
          { ...at, phase: 'supervise', message: superviseMessage(slot.goal.name, triggers, executed.output) },
        ],
      };
    }
    return judged(log, at, answer);
  }
  if (verdict?.record.verdict === 'PAUSE' || slot.supervision === 'human') {
    return gate(log, at, executed, verdict?.record.verdict === 'PAUSE' ? verdict.content : executed.output);
  }
  return complete(executed);
}

/** Records the supervisor's verdict; a REORIENT within the bound starts the next attempt with its correction. */
function judged(log: RunLog, at: Attempt, answer: Logged<'output'>): Plan {
  const verdict = parseVerdict(answer.content);
  const text = verdict.verdict === 'CONTINUE' ? '' : verdict.text;
  const records: NewRecord[] = [
    { record: { kind: 'verdict', ...at, verdict: verdict.verdict }, content: text },
  ];
  const reoriented = recordsOf(log, 'correction').filter(
    ({ record }) => record.slot === at.slot && record.source === 'supervisor',
  ).length;
  if (verdict.verdict === 'REORIENT' && reoriented < MAX_REORIENTS) {
    records.push({
      record: { kind: 'correction', ...at, attempt: at.attempt + 1, source: 'supervisor' },
      content: text,
    });
  }
  return { kind: 'record', records };
}

/** A human gate: asked once per attempt, then answered (or expired) by a decision in the log. */
function gate(log: RunLog, at: Attempt, executed: Executed, question: string): Plan {
  const latest = latestOf(recordsOf(log, 'gate'), at);
  if (latest === undefined) {
    const id = `${at.slot}.${at.attempt}`;
    return {
      kind: 'record',
      records: [{ record: { kind: 'gate', ...at, gate: id, status: 'waiting' }, content: question }],
    };
  }
  switch (latest.record.status) {
    case 'waiting':
      return { kind: 'wait', gate: latest };
    case 'approved':
      return complete(executed);
    case 'aborted':
      return {
        kind: 'record',
        records: [
          {
            record: { kind: 'end', status: 'aborted' },
            content: `Aborted at goal ${at.goal} by ${latest.record.by ?? 'a person'}.`,
          },
        ],
      };
    case 'expired':
      return failed('GateExpired', `Nobody answered the human gate of goal ${at.goal} in time.`);
    case 'corrected':
      // The decision appended the correction with it: the next plan runs the next attempt.
      return failed(
        'GateCorrectionMissing',
        `The correction of goal ${at.goal}'s gate is missing from the log.`,
      );
  }
}

function complete(executed: Executed): Plan {
  return { kind: 'record', records: executed.completion };
}

function latestOf<T extends { record: { slot: string; attempt: number } }>(
  records: readonly T[],
  at: Attempt,
): T | undefined {
  return records.findLast(({ record }) => record.slot === at.slot && record.attempt === at.attempt);
}
