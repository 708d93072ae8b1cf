import { ErrorNote } from '../common/error-note.js';
import { ApprovalCard } from './approval-card.js';
import { usePendingApprovals } from './use-pending-approvals.js';
import { useToolSchemas } from './use-tool-schemas.js';

/**
 * The calls of a session waiting for a decision, refreshed whenever the stream brings an `approval`
 * event; nothing while none waits.
 */
export function ApprovalList({ session, approvalEvents }: { session: string; approvalEvents: number }) {
  const { pending, error } = usePendingApprovals(session, approvalEvents);
  const schemas = useToolSchemas();
  if (pending.length === 0 && error === undefined) return null;
  return (
    <section class="approvals" aria-label="Waiting for approval">
      <h2>Waiting for you ({pending.length})</h2>
      <ErrorNote error={error} />
      {pending.map((approval) => (
        <ApprovalCard
          key={approval.id}
          session={session}
          approval={approval}
          schema={schemas.get(approval.tool)}
        />
      ))}
    </section>
  );
}
