import type { ApprovalRecord } from '@agentstep/protocol';

/** The call an approval is for, as a person is asked about it. */
export type ApprovalQuestion = Pick<ApprovalRecord, 'id' | 'tool' | 'args'>;

/** Hears of a run's approvals as its view shows them, e.g. to ask the person at the terminal. */
export interface ApprovalListener {
  /** A call now waits for a decision. */
  onApprovalRequested(approval: ApprovalQuestion): void;
  /** The approval was decided, expired or cancelled, wherever that happened. */
  onApprovalSettled(id: string): void;
}
