import { FoldedText } from '../common/folded-text.js';
import { CallGantt } from './call-gantt.js';
import { callParts, finishedCalls } from './call-parts.js';
import { type ArgChange, argChanges } from './edited-args.js';
import { Elapsed, formatSeconds } from './elapsed.js';
import type { ApprovalEvent, BatchEntry } from './timeline-entries.js';

/**
 * A batch's calls side by side, each with its outcome and how long it ran once it finished (its
 * result logged, or, while other calls of the batch still run or wait, its outcome streamed; until
 * then, how long it has been running), and the arguments a person's approval edited.
 */
export function BatchView({ batch }: { batch: BatchEntry }) {
  const finished = finishedCalls(batch);
  const started = batch.calls[0]?.timestamp;
  return (
    <div class="batch">
      <div class="calls">
        {batch.calls.map((call, index) => {
          const { name, args, server } = callParts(call);
          const outcome = finished[index]?.outcome;
          const edited = editedBy(batch.approvals, index);
          const changes = edited === undefined ? [] : argChanges(args, edited);
          return (
            <article class="call" data-seq={call.seq} key={call.seq}>
              <h3>
                {name}
                {server && <small class="server"> MCP server {server}</small>}
              </h3>
              <FoldedText value={args} />
              {changes.length > 0 && <EditedArgs changes={changes} />}
              {outcome === undefined ? (
                <p class="pending">
                  waiting for its result… <Elapsed since={call.timestamp} />
                </p>
              ) : (
                <div class={`outcome ${outcome.status}`}>
                  <span class="label">{outcome.status}</span>
                  <CallDuration ms={finished[index]?.ms} />
                  <FoldedText value={outcome.content} />
                </div>
              )}
            </article>
          );
        })}
      </div>
      {batch.result && batch.calls.length > 1 && <CallGantt batch={batch} />}
      {batch.result && (
        <p class="batch-summary" data-seq={batch.result.seq}>
          {batch.result.payload.success_count} succeeded, {batch.result.payload.failure_count} failed
          {started !== undefined && ` · the batch took ${formatSeconds(batch.result.timestamp - started)}`}
        </p>
      )}
    </div>
  );
}

/** How long a call ran, as its batch's result says (nothing when it is not known). */
function CallDuration({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return null;
  return <span class="duration"> · ran {formatSeconds(ms / 1000)}</span>;
}

/** The arguments a person approved call `index` with in place of the model's, if they edited them. */
function editedBy(approvals: readonly ApprovalEvent[], index: number) {
  const { payload } = approvals.findLast((approval) => approval.payload.index === index) ?? {};
  return payload?.status === 'approved' ? payload.args : undefined;
}

/** What a person's edit changed before the call ran: each argument, before and after. */
function EditedArgs({ changes }: { changes: readonly ArgChange[] }) {
  return (
    <div class="edited-args">
      <p class="label">Run with edited arguments:</p>
      <ul>
        {changes.map(({ name, before, after }) => (
          <li key={name}>
            <code>{name}</code>: <del>{JSON.stringify(before) ?? '(none)'}</del> →{' '}
            <ins>{JSON.stringify(after) ?? '(removed)'}</ins>
          </li>
        ))}
      </ul>
    </div>
  );
}
