import type { StoredEvent } from '@agentstep/protocol';
import { cancelWaitingApprovals } from '../approvals/cancel-waiting-approvals.js';
import { type AppendResultsDeps, appendResults } from './append-results.js';
import { hasBatchFailure } from './has-batch-failure.js';

/** Which turn's open batch to close, and which turn holds the session to write it. */
export interface OpenBatchRef {
  session: string;
  /** The turn whose last batch may be open. */
  turn: string;
  /** The turn that holds the session now: `turn` itself, or the one that took the session over. */
  writer: string;
}

/**
 * Gives a turn's last batch its `result` if it has none (B4): its approvals still waiting are
 * cancelled, each call keeps its stored outcome, a call without one gets a failure saying `reason`.
 * Idempotent; a batch with a result, or a final answer without calls, is left alone.
 */
export async function closeOpenBatch(
  ref: OpenBatchRef,
  reason: string,
  deps: AppendResultsDeps,
): Promise<void> {
  const events = await deps.log.read(ref.session);
  await cancelWaitingApprovals(ref, events, deps);
  const batch = lastBatchOf(events, ref.turn);
  if (
    batch === undefined ||
    events.some((stored) => stored.batch === batch && stored.event.type === 'result')
  )
    return;
  const calls = events
    .filter((stored) => stored.batch === batch && stored.event.type === 'call')
    .map((stored) => ({ position: stored.position ?? 0, seq: stored.seq, target: 'none' }));
  const count =
    calls.length > 0 ? calls.length : (await hasBatchFailure(ref.session, batch, deps.outcomes)) ? 1 : 0;
  if (count === 0) return;
  await appendResults({ session: ref.session, turn: ref.writer, batch, calls, count }, deps, reason);
}

/** The id of the last batch `turn` wrote, if any (batch ids are `<turn>.<step>`, see `batchId`). */
function lastBatchOf(events: readonly StoredEvent[], turn: string): string | undefined {
  return events.findLast((stored) => stored.batch?.startsWith(`${turn}.`) === true)?.batch;
}
