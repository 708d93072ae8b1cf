import type { StoredEvent } from '../events/stored-event.js';
import type { WireEventOf } from '../events/wire-event.js';

/** What a `compacted` event says: the seq it replaces the log up to, its summary, and its figures. */
export type Compaction = WireEventOf<'compacted'>['payload'];

/** What the model sees of a log: the compaction in force, if any, and the events after it. */
export interface CompactedView {
  /** The log's latest compaction. */
  compaction?: Compaction;
  /** The events after the compaction's `upToSeq` (the whole log without one), in `seq` order. */
  events: readonly StoredEvent[];
}

/**
 * The log as the model sees it: its latest `compacted` event stands for every event up to that
 * event's `upToSeq`, and the events after it follow as they are (decision 0035). A log cut before
 * its first compaction (a fork, `--at`) is seen whole again: nothing is ever rewritten.
 */
export function compactedView(events: readonly StoredEvent[]): CompactedView {
  const latest = events.findLast(({ event }) => event.type === 'compacted')?.event;
  if (latest?.type !== 'compacted') return { events };
  const compaction = latest.payload;
  const after = events.findIndex((stored) => stored.seq > compaction.upToSeq);
  return { compaction, events: after === -1 ? [] : events.slice(after) };
}

/**
 * The user message that stands for the compacted events: the summary (or the note of what was
 * left out), said to be that; `</summary>` inside it is written `<\/summary>`, so it cannot close
 * the block early.
 */
export function summaryMessage(compaction: Compaction): string {
  const summary = compaction.summary.replaceAll('</summary', '<\\/summary');
  const left = `Events 1–${compaction.upToSeq} of this session are no longer in the context; in their place:`;
  return `<summary>\n${left}\n${summary}\n</summary>`;
}
