import type { ApprovalDecision, FieldProblem, PendingApproval } from '@agentstep/client';
import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { editedArgs } from './edited-args.js';
import { schemaProblems } from './schema-problems.js';

/** A call waiting for a decision, and its tool's argument schema once the page has it. */
interface ApprovalCardProps {
  session: string;
  approval: PendingApproval;
  schema: unknown;
}

/**
 * A call waiting for a decision: approve it (with its arguments as edited, checked as JSON and
 * against the tool's schema before anything is sent, and by the API again, each problem shown
 * field by field) or deny it with a reason.
 */
export function ApprovalCard({ session, approval, schema }: ApprovalCardProps) {
  const client = useClient();
  const original = JSON.stringify(approval.args, null, 2);
  const [argsText, setArgsText] = useState(original);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>();
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [busy, setBusy] = useState(false);
  const decide = async (decision: ApprovalDecision) => {
    setBusy(true);
    setError(undefined);
    try {
      await client.decide(session, approval.id, decision);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const approve = () => {
    const args = editedArgs(argsText, approval.args);
    setProblems([]);
    if (args instanceof Error) return setError(args);
    const found = args === undefined || schema === undefined ? [] : schemaProblems(schema, args);
    if (found.length > 0) {
      setError(new Error(`The arguments do not fit ${approval.tool}: nothing was sent.`));
      return setProblems(found);
    }
    void decide(args === undefined ? { decision: 'approve' } : { decision: 'approve', args });
  };
  const deny = () => void decide(reason.trim() === '' ? { decision: 'deny' } : { decision: 'deny', reason });
  const argsId = `args-${approval.id}`;
  const reasonId = `reason-${approval.id}`;
  return (
    <article class="approval-card" data-approval={approval.id}>
      <h3>
        {approval.tool} <small>call {approval.position + 1} waits for you</small>
      </h3>
      <label for={argsId}>Arguments (JSON)</label>
      <textarea
        id={argsId}
        rows={Math.min(10, original.split('\n').length + 1)}
        value={argsText}
        onInput={(event) => setArgsText(event.currentTarget.value)}
      />
      <label for={reasonId}>Reason to deny</label>
      <input id={reasonId} value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
      <div class="actions">
        <button type="button" onClick={approve} disabled={busy}>
          Approve
        </button>
        <button type="button" class="danger" onClick={deny} disabled={busy}>
          Deny
        </button>
      </div>
      <ErrorNote error={error} fields={problems} />
    </article>
  );
}
