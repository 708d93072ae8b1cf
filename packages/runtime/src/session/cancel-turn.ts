import { setTimeout as sleep } from 'node:timers/promises';
import { cancelWaitingApprovals, type WakeDeps } from '../approvals/cancel-waiting-approvals.js';
import { NoTurnRunningError } from '../errors.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import { CANCELLED_CALL } from '../steps/close-stopped-turn.js';
import { closeTurn } from '../steps/close-turn.js';
import { turnEndKey } from '../steps/end-turn.js';
import { CANCELLED_MESSAGE } from '../steps/finish-turn.js';
import { refuseWorkflowSession } from '../workflows/refuse-workflow-session.js';
import type { ExecutionStarter } from './execution-starter.js';

/** How long a cancelled turn has to end itself before its execution is stopped. */
export const DEFAULT_CANCEL_GRACE_MS = 1_000;
const POLL_MS = 50;

/** What cancelling needs: the stores, and the starter that can stop an execution. */
export interface CancelDeps extends AppendResultsDeps {
  starter: ExecutionStarter;
  /** @default DEFAULT_CANCEL_GRACE_MS */
  graceMs?: number;
  /** Wakes calls waiting for approval, so they fail at once. @default none: they wait out the grace */
  wake?: WakeDeps;
}

/**
 * Cancels the turn holding `session`. The request is recorded first (the loop stops before its next
 * model step or tool batch), then calls waiting for approval are cancelled and woken; a turn that has not ended itself within the grace period has its
 * execution stopped and is closed here: a failure result for each unfinished call, a `cancelled`
 * terminal record, the session freed. So it ends cleanly even when its execution is dead. Throws
 * NoTurnRunningError when no turn holds the session (or, given `only`, when the turn holding it is
 * another: a client cancelling the turn it followed never stops a newer one), and WorkflowSessionError for a workflow run's
 * session or one of its goal sessions (the run ends their turns, not a client).
 */
export async function cancelTurn(
  session: string,
  deps: CancelDeps,
  only?: string,
): Promise<{ turn: string }> {
  await refuseWorkflowSession(session, deps);
  const holder = await deps.log.holder(session);
  const mine = holder !== undefined && (only === undefined || holder.turn === only);
  if (!mine || !(await deps.log.requestCancel(session, holder.turn))) throw new NoTurnRunningError(session);
  const { turn } = holder;
  await cancelWaitingApprovals({ session, turn, writer: turn }, await deps.log.read(session), deps);
  if (await endedWithin(session, turn, deps.graceMs ?? DEFAULT_CANCEL_GRACE_MS, deps)) return { turn };
  await deps.starter.stop({ session, turn });
  await closeTurn({ session, turn, status: 'cancelled', message: CANCELLED_MESSAGE }, CANCELLED_CALL, deps);
  return { turn };
}

async function endedWithin(session: string, turn: string, ms: number, deps: AppendResultsDeps) {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await deps.log.appended(session, turnEndKey(turn))) !== undefined) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}
