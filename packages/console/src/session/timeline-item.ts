import type { CallOutcome, LoggedEvent, StreamEvent } from '@agentstep/client';

/** One model step's usage (or its compaction's, decision 0035), as its `metric` event reported it. */
export interface StepMetric {
  type: 'metric';
  key: string;
  /** Set for what a compaction's summary before the step spent. */
  purpose?: 'compaction';
  input: number;
  output: number;
  /** The step's estimated cost, when the model has a price. */
  costUsd: number | undefined;
  /** The session's estimated cost so far, when every model used has a price. */
  totalCostUsd: number | undefined;
}

/** A failure the stream reported; not logged, so a reload no longer shows it. */
export interface StreamError {
  type: 'error';
  key: string;
  content: string;
}

/**
 * A call's outcome the stream sent while its batch waited for other calls (not logged: the batch's
 * `result` says the same once it is), keyed by its call.
 */
export type EarlyOutcome = CallOutcome & { key: string };

/**
 * What the timeline shows, in the order it arrived: logged events (keyed by `seq`), step metrics,
 * errors and the outcomes of a waiting batch's calls.
 */
export type TimelineItem = LoggedEvent | StepMetric | StreamError | EarlyOutcome;

/** The key that makes an item appear once however often the stream delivers it. */
export function itemKey(item: TimelineItem): string {
  return 'seq' in item ? `seq-${item.seq}` : item.key;
}

/**
 * The timeline item of a stream event: a logged event as it is, a `metric` keyed by its model step
 * (and purpose: a compaction before a step has its own), an `error` keyed by its place, a call's
 * outcome by its call; `undefined` for events the timeline does not show.
 */
export function timelineItem(item: StreamEvent | CallOutcome, position: number): TimelineItem | undefined {
  if (item.type === 'call_outcome') return { ...item, key: `outcome-${item.batch}#${item.position}` };
  if ('seq' in item) return item.event;
  const { event } = item;
  if (event.type === 'metric') {
    const purpose = event.payload?.purpose;
    return {
      type: 'metric',
      key: `metric-${purpose === undefined ? '' : `${purpose}-`}${event.payload?.batch ?? position}`,
      ...(purpose === undefined ? {} : { purpose }),
      input: event.step.input,
      output: event.step.output,
      costUsd: event.payload?.cost_usd,
      totalCostUsd: event.payload?.total_cost_usd,
    };
  }
  if (event.type === 'error') return { type: 'error', key: `error-${position}`, content: event.content };
  return undefined;
}
