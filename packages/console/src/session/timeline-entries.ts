import type { LoggedEvent } from '@agentstep/client';
import type { EarlyOutcome, TimelineItem } from './timeline-item.js';

/** A `call` event of the log. */
export type CallEvent = Extract<LoggedEvent, { type: 'call' }>;
/** A `result` event of the log. */
export type ResultEvent = Extract<LoggedEvent, { type: 'result' }>;
/** An `approval` event of the log. */
export type ApprovalEvent = Extract<LoggedEvent, { type: 'approval' }>;

/** One model step's calls, side by side, with the result that answered them once it is logged. */
export interface BatchEntry {
  kind: 'batch';
  key: string;
  calls: CallEvent[];
  /** The approval events logged while its calls waited (requests and decisions, edited arguments). */
  approvals: ApprovalEvent[];
  /** The outcomes of its calls that finished while others still ran or waited, before its result. */
  outcomes: EarlyOutcome[];
  result: ResultEvent | undefined;
}

/** One row of the timeline: a batch, or any other item on its own. */
export type TimelineEntry =
  | BatchEntry
  | { kind: 'item'; key: string; item: Exclude<TimelineItem, CallEvent | EarlyOutcome> };

/**
 * Groups the timeline's items into rows: consecutive calls form one batch, which the next `result`
 * completes; approvals, metrics and errors do not interrupt a batch, any other event ends it. A
 * call's outcome that came before its result joins the open batch.
 */
export function timelineEntries(items: readonly TimelineItem[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let open: BatchEntry | undefined;
  for (const item of items) {
    if (item.type === 'call') {
      if (open === undefined) {
        open = {
          kind: 'batch',
          key: `batch-${item.seq}`,
          calls: [],
          approvals: [],
          outcomes: [],
          result: undefined,
        };
        entries.push(open);
      }
      open.calls.push(item);
      continue;
    }
    if (item.type === 'call_outcome') {
      open?.outcomes.push(item);
      continue;
    }
    if (item.type === 'result' && open !== undefined) {
      open.result = item;
      open = undefined;
      continue;
    }
    if (item.type === 'approval') open?.approvals.push(item);
    if (!keepsBatchOpen(item)) open = undefined;
    entries.push({ kind: 'item', key: 'seq' in item ? `seq-${item.seq}` : item.key, item });
  }
  return entries;
}

/** Items that arrive while a batch's calls wait for their result. */
function keepsBatchOpen(item: TimelineItem): boolean {
  return item.type === 'approval' || item.type === 'metric' || item.type === 'error';
}
