import type { ExpireApprovalInput } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';
import { settleApproval } from './settle-approval.js';

/**
 * ExpireApproval: nobody decided on the call before its wait timed out. Settles its approval as
 * `expired`, unless a decision landed first (that decision then stands).
 */
export async function expireApproval(
  input: ExpireApprovalInput,
  deps: { log: EventLog; clock: Clock },
): Promise<{ expired: boolean }> {
  return { expired: await settleApproval({ ...input }, { status: 'expired' }, deps) };
}
