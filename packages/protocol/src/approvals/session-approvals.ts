import type { StoredEvent } from '../events/stored-event.js';
import type { ApprovalStatus } from '../events/wire-event.js';

/** One approval as a session's log tells it: the call it is for, when it was asked, and how it stands. */
export interface ApprovalRecord {
  id: string;
  tool: string;
  /** The call's arguments as the model wrote them. */
  args: Record<string, unknown>;
  batch: string;
  /** The call's position in its batch. */
  position: number;
  /** When it was asked and when it expires, in ms since the epoch. */
  requestedAt: number;
  expiresAt: number;
  status: ApprovalStatus;
  /** When it was settled, in ms since the epoch. */
  settledAt?: number;
}

/** Every approval of a session's log (given in `seq` order), oldest first. */
export function sessionApprovals(events: readonly StoredEvent[]): ApprovalRecord[] {
  const approvals = new Map<string, ApprovalRecord>();
  for (const { event, batch } of events) {
    if (event.type !== 'approval') continue;
    const { id, index, status, tool, args, expires_at } = event.payload;
    const record = approvals.get(id);
    if (status === 'requested' && record === undefined) {
      approvals.set(id, {
        id,
        tool: tool ?? '',
        args: args ?? {},
        batch: batch ?? '',
        position: index,
        requestedAt: event.timestamp * 1000,
        expiresAt: (expires_at ?? event.timestamp) * 1000,
        status,
      });
    } else if (record?.status === 'requested') {
      record.status = status;
      record.settledAt = event.timestamp * 1000;
    }
  }
  return [...approvals.values()];
}

/** The approvals of a session's log that still wait for a decision, oldest first. */
export function pendingApprovals(events: readonly StoredEvent[]): ApprovalRecord[] {
  return sessionApprovals(events).filter((approval) => approval.status === 'requested');
}

/**
 * How long the approvals of one turn's batches kept it waiting for a person, in ms: the union of
 * their waits (overlapping waits count once), a pending one up to `now`. The wall-clock budget
 * does not count this time.
 */
export function approvalWaitMs(events: readonly StoredEvent[], turn: string, now: number): number {
  const waits = sessionApprovals(events)
    .filter((approval) => approval.batch.startsWith(`${turn}.`))
    .map((approval) => [approval.requestedAt, approval.settledAt ?? now] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let coveredUntil = Number.NEGATIVE_INFINITY;
  for (const [start, end] of waits) {
    const from = Math.max(start, coveredUntil);
    if (end > from) total += end - from;
    coveredUntil = Math.max(coveredUntil, end);
  }
  return total;
}
