import type { PendingApproval } from '@agentstep/client';
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';

/** The calls of `session` waiting for a decision, asked again whenever `approvalEvents` (a count) changes. */
export function usePendingApprovals(
  session: string,
  approvalEvents: number,
): { pending: PendingApproval[]; error: unknown } {
  const client = useClient();
  const [pending, setPending] = useState<PendingApproval[]>([]);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let current = true;
    client.approvals(session).then(
      (approvals) => current && setPending(approvals),
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [client, session, approvalEvents]);
  return { pending, error };
}
