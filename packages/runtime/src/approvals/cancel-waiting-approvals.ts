import { pendingApprovals, type StoredEvent } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';
import type { OpenBatchRef } from '../steps/close-open-batch.js';
import type { ApprovalTokenStore } from './approval-token-store.js';
import { settleApproval } from './settle-approval.js';
import type { TaskTokens } from './task-tokens.js';
import { wakeWaitingCall } from './wake-waiting-call.js';

/** What waking the cancelled calls needs; without it they are only settled (their execution is gone). */
export interface WakeDeps {
  approvalTokens: ApprovalTokenStore;
  taskTokens: TaskTokens;
}

/**
 * Ends the approvals of `ref.turn` that still wait in `events` (the session's log), as
 * `cancelled`, written by `ref.writer`: each is settled once and, given `wake`, its task is woken
 * so the call gets its `cancelled` failure at once and no task is left waiting.
 */
export async function cancelWaitingApprovals(
  ref: OpenBatchRef,
  events: readonly StoredEvent[],
  deps: { log: EventLog; clock: Clock; wake?: WakeDeps },
): Promise<void> {
  const waiting = pendingApprovals(events).filter((approval) => approval.batch.startsWith(`${ref.turn}.`));
  for (const approval of waiting) {
    const { id, batch, position } = approval;
    const target = { session: ref.session, turn: ref.writer, batch, position, approval: id };
    await settleApproval(target, { status: 'cancelled' }, deps);
    if (deps.wake) await wakeWaitingCall(ref.session, id, deps.wake);
  }
}
