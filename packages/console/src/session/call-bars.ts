import { callParts } from './call-parts.js';
import type { BatchEntry } from './timeline-entries.js';

/** One call of a batch on the batch's time line, in seconds from the batch's start. */
export interface CallBar {
  name: string;
  /** It waited for a person's decision from `from` to `to`. */
  wait?: { from: number; to: number };
  /** It ran from `from` to `to` (known once the batch's result says how long it ran). */
  run?: { from: number; to: number };
}

/** A batch's calls as bars on one time line, and the line's length (until the batch's result). */
export interface BatchBars {
  bars: CallBar[];
  span: number;
}

/**
 * Where each call of a finished batch spent its time, from the batch's own log: waiting for
 * approval (its request to its decision), then running for as long as the result says it ran,
 * from its decision or, without one, from the batch's start (calls of a batch start together).
 */
export function batchBars(batch: BatchEntry): BatchBars | undefined {
  const start = batch.calls[0]?.timestamp;
  const result = batch.result;
  if (start === undefined || result === undefined) return undefined;
  const durations = result.payload.durations_ms ?? [];
  const bars = batch.calls.map((call, index): CallBar => {
    const approvals = batch.approvals.filter((approval) => approval.payload.index === index);
    const asked = approvals.find((approval) => approval.payload.status === 'requested')?.timestamp;
    const decided = approvals.find((approval) => approval.payload.status !== 'requested')?.timestamp;
    const wait =
      asked !== undefined && decided !== undefined ? { from: asked - start, to: decided - start } : undefined;
    const ms = durations[index];
    const from = wait?.to ?? 0;
    return {
      name: callParts(call).name,
      ...(wait ? { wait } : {}),
      ...(ms === null || ms === undefined ? {} : { run: { from, to: from + ms / 1000 } }),
    };
  });
  const ends = bars.map((bar) => Math.max(bar.run?.to ?? 0, bar.wait?.to ?? 0));
  return { bars, span: Math.max(result.timestamp - start, ...ends, 0.001) };
}
