import {
  type ApprovalDecided,
  type ApprovalDecisionBody,
  type ApprovalRecord,
  type StoredEvent,
  sessionApprovals,
} from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import { AlreadyDecidedError, ApprovalNotFoundError, SessionBusyError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { turnOfBatch } from '../steps/batch-id.js';
import type { Toolset } from '../tools/toolset.js';
import { type ArgsProblem, validateArgs } from '../tools/validate-args.js';
import type { ApprovalTokenStore } from './approval-token-store.js';
import { settleApproval } from './settle-approval.js';
import type { TaskTokens } from './task-tokens.js';
import { wakeWaitingCall } from './wake-waiting-call.js';

/** What deciding needs: the log, the tools (edited arguments are checked) and the task tokens. */
export interface DecideApprovalDeps {
  log: EventLog;
  clock: Clock;
  toolset: Toolset;
  approvalTokens: ApprovalTokenStore;
  taskTokens: TaskTokens;
}

/** Edited arguments the call's tool refuses: nothing was decided. */
export class ApprovalArgsInvalidError extends Error {
  override readonly name = 'ValidationError';

  constructor(
    message: string,
    readonly problems: readonly ArgsProblem[],
  ) {
    super(message);
  }
}

/**
 * A person's decision on a waiting call: a conditional write on that approval (decided once, and
 * only while its turn holds the session), then its task is woken to run or fail the call.
 * Throws ApprovalNotFound, AlreadyDecided, or ApprovalArgsInvalid for edited arguments the tool
 * refuses (the approval then still waits).
 */
export async function decideApproval(
  request: {
    session: string;
    approval: string;
    by?: string;
    body: ApprovalDecisionBody;
    /** The session's log, when the caller has just read it: not read again. */
    events?: readonly StoredEvent[];
  },
  deps: DecideApprovalDeps,
): Promise<ApprovalDecided> {
  const { session, approval, body } = request;
  const events = request.events ?? (await deps.log.read(session));
  const record = sessionApprovals(events).find(({ id }) => id === approval);
  if (record === undefined) throw new ApprovalNotFoundError(session, approval);
  if (record.status !== 'requested') throw await alreadyDecided(session, approval, record.status, deps);
  if (body.args !== undefined) checkEditedArgs(record, body.args, deps.toolset);
  const settlement = {
    status: body.decision === 'approve' ? ('approved' as const) : ('denied' as const),
    ...(body.reason === undefined ? {} : { reason: body.reason }),
    ...(request.by === undefined ? {} : { by: request.by }),
    ...(body.args === undefined ? {} : { args: body.args }),
  };
  const ref = {
    session,
    turn: turnOfBatch(record.batch),
    batch: record.batch,
    position: record.position,
    approval,
  };
  if (!(await settled(ref, settlement, deps))) throw await alreadyDecided(session, approval, 'decided', deps);
  await wakeWaitingCall(session, approval, deps);
  return { id: approval, decision: body.decision };
}

/**
 * AlreadyDecided, after waking the call once more: a decision whose wake failed (and whose client
 * retried, to be told it was decided) must not leave its call waiting out its whole timeout. Waking
 * a call whose task already went on changes nothing.
 */
async function alreadyDecided(
  session: string,
  approval: string,
  status: string,
  deps: DecideApprovalDeps,
): Promise<AlreadyDecidedError> {
  await wakeWaitingCall(session, approval, deps).catch(() => {});
  return new AlreadyDecidedError(approval, status);
}

function checkEditedArgs(record: ApprovalRecord, args: Record<string, unknown>, toolset: Toolset): void {
  const found = toolset.find(record.tool);
  if (!found.ok) return;
  const check = validateArgs(found.tool, args);
  if (!check.ok) throw new ApprovalArgsInvalidError(check.message, check.problems);
}

/** Settles the approval; false when it was settled first, or its turn no longer holds the session. */
async function settled(
  ref: Parameters<typeof settleApproval>[0],
  settlement: Parameters<typeof settleApproval>[1],
  deps: DecideApprovalDeps,
): Promise<boolean> {
  try {
    return await settleApproval(ref, settlement, deps);
  } catch (error) {
    if (error instanceof SessionBusyError) return false;
    throw error;
  }
}
