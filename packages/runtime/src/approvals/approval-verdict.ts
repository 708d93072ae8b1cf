import type { ApprovalSettlement } from '@agentstep/protocol';

/** What a call's settled approval means for it: run (with the edited arguments, if any), or fail. */
export type ApprovalVerdict = { run: true; args?: Record<string, unknown> } | { run: false; failure: string };

/**
 * The verdict of a call's settled approval: approved runs the tool; denied, expired and cancelled
 * are the call's failure, worded for the model.
 */
export function approvalVerdict(settlement: ApprovalSettlement): ApprovalVerdict {
  switch (settlement.status) {
    case 'approved':
      return settlement.args === undefined ? { run: true } : { run: true, args: settlement.args };
    case 'denied':
      return { run: false, failure: `denied: ${settlement.reason || 'no reason given'}` };
    case 'expired':
      return { run: false, failure: 'approval timed out' };
    case 'cancelled':
      return { run: false, failure: 'cancelled' };
  }
}
