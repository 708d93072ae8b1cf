import { FoldedText } from '../common/folded-text.js';
import { callOutcomes, callParts } from './call-parts.js';
import type { BatchEntry } from './timeline-entries.js';

/** A batch's calls side by side, each with its outcome once the batch's result is logged. */
export function BatchView({ batch }: { batch: BatchEntry }) {
  const outcomes = callOutcomes(batch.result);
  return (
    <div class="batch">
      <div class="calls">
        {batch.calls.map((call, index) => {
          const { name, args, server } = callParts(call);
          const outcome = outcomes[index];
          return (
            <article class="call" data-seq={call.seq} key={call.seq}>
              <h3>
                {name}
                {server && <small class="server"> MCP server {server}</small>}
              </h3>
              <FoldedText value={args} />
              {outcome === undefined ? (
                <p class="pending">waiting for its result…</p>
              ) : (
                <div class={`outcome ${outcome.status}`}>
                  <span class="label">{outcome.status}</span>
                  <FoldedText value={outcome.content} />
                </div>
              )}
            </article>
          );
        })}
      </div>
      {batch.result && (
        <p class="batch-summary" data-seq={batch.result.seq}>
          {batch.result.payload.success_count} succeeded, {batch.result.payload.failure_count} failed
        </p>
      )}
    </div>
  );
}
