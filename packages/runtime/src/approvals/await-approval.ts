import type { AwaitApprovalInput } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import { ApprovalSettledError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { cancelRequested } from '../steps/cancel-requested.js';
import type { ApprovalTokenStore } from './approval-token-store.js';
import { settleApproval, settlementOf } from './settle-approval.js';

/** What waiting for a decision needs. */
export interface AwaitApprovalDeps {
  log: EventLog;
  clock: Clock;
  approvalTokens: ApprovalTokenStore;
}

/**
 * AwaitApproval: keeps the task token of a call that waits for a person, for the decision to wake
 * its task with; the task then waits at no cost. Token first, then the check: a decision made
 * before the token was kept is found here, and one made after finds the token. A settled approval
 * (decided, or its turn asked to stop) does not wait: ApprovalSettled sends the map on at once.
 */
export async function awaitApproval(
  input: AwaitApprovalInput,
  deps: AwaitApprovalDeps,
): Promise<{ waiting: string }> {
  const { session, approval } = input;
  await deps.approvalTokens.put(session, approval, input.token);
  if (await cancelRequested(deps.log, session, input.turn))
    await settleApproval({ ...input }, { status: 'cancelled' }, deps);
  if ((await settlementOf(deps.log, session, approval)) !== undefined)
    throw new ApprovalSettledError(session, approval);
  return { waiting: approval };
}
