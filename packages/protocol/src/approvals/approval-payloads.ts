import * as z from 'zod';
import { APPROVAL_STATUSES } from '../events/wire-event.js';

/** How long a call waits for a decision unless the deployment says otherwise: 24 hours. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 24 * 60 * 60;

/** The statuses that settle an approval: a person's decision, or its end without one. */
export const SETTLED_APPROVAL_STATUSES = APPROVAL_STATUSES.filter((status) => status !== 'requested');

/** A settled approval's status. */
export type SettledApprovalStatus = Exclude<(typeof APPROVAL_STATUSES)[number], 'requested'>;

/**
 * How an approval was settled, as the note of its settling append keeps it: InvokeTool reads it to
 * know what the call's one result is. `args` are the arguments a person edited before approving.
 */
export const approvalSettlementSchema = z.object({
  status: z.enum(SETTLED_APPROVAL_STATUSES as [SettledApprovalStatus, ...SettledApprovalStatus[]]),
  reason: z.string().optional(),
  by: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});

/** How an approval was settled. */
export type ApprovalSettlement = z.infer<typeof approvalSettlementSchema>;

/**
 * The id of the approval a batch's call waits on: unique in its session (batch ids are), the same
 * on every delivery, and naming the one call a decision can land on.
 */
export function approvalId(batch: string, position: number): string {
  return `${batch}.${position}`;
}
