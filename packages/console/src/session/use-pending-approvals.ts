import type { PendingApproval } from '@agentstep/client';
import { useClient } from '../client-context.js';
import { useLoaded } from '../common/use-loaded.js';

/** The calls of `session` waiting for a decision, asked again whenever `approvalEvents` (a count) changes. */
export function usePendingApprovals(
  session: string,
  approvalEvents: number,
): { pending: PendingApproval[]; error: unknown } {
  const client = useClient();
  const { value, error } = useLoaded(() => client.approvals(session), [], [client, session, approvalEvents]);
  return { pending: value, error };
}
