import {
  type ApprovalSettlement,
  approvalSettlementSchema,
  type SettledApprovalStatus,
} from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';

/** The approval a call waits on: its session, its turn, the call's position and the approval's id. */
export interface ApprovalRef {
  session: string;
  turn: string;
  position: number;
  approval: string;
  batch: string;
}

/** The idempotency key that settles an approval: whoever appends it first decides, once. */
export function settlementKey(approval: string): string {
  return `approval:${approval}`;
}

/**
 * Settles an approval, a conditional write on it: its `approval` event is appended with the
 * settlement as its note, unless it was settled before (a decision, its expiry or a cancel), and
 * only while its turn holds the session. Returns whether this call settled it.
 */
export async function settleApproval(
  ref: ApprovalRef,
  settlement: ApprovalSettlement,
  deps: { log: EventLog; clock: Clock },
): Promise<boolean> {
  const { status, reason, by, args } = settlement;
  const payload = {
    id: ref.approval,
    index: ref.position,
    status,
    ...(reason === undefined ? {} : { reason }),
    ...(by === undefined ? {} : { by }),
    ...(args === undefined ? {} : { args }),
  };
  const appended = await deps.log.append({
    session: ref.session,
    turn: ref.turn,
    key: settlementKey(ref.approval),
    note: settlement,
    events: [
      {
        batch: ref.batch,
        position: ref.position,
        event: { type: 'approval', content: SETTLED[status], payload, timestamp: deps.clock.now() / 1000 },
      },
    ],
  });
  return !appended.replayed;
}

/** How an approval was settled, if it was. */
export async function settlementOf(
  log: EventLog,
  session: string,
  approval: string,
): Promise<ApprovalSettlement | undefined> {
  const appended = await log.appended(session, settlementKey(approval));
  return appended?.note === undefined ? undefined : approvalSettlementSchema.parse(appended.note);
}

/** What each settlement's event says, for people. */
const SETTLED: Record<SettledApprovalStatus, string> = {
  approved: 'The call was approved.',
  denied: 'The call was denied.',
  expired: 'Nobody decided on the call in time.',
  cancelled: 'The turn ended (cancelled, failed or taken over) while the call waited for approval.',
};
