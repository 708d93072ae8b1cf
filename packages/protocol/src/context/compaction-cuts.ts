import type { StoredEvent } from '../events/stored-event.js';

/** The event types the model sees (the rest are records for people and the runtime). */
const SHOWN = new Set(['user', 'think', 'respond', 'call', 'result']);

/**
 * Where a compaction may end the older part of `events` (a compacted view's), as the seq of the
 * older part's last event, in order: right after a batch's results, or right before a turn's user
 * message, so no call is ever cut from its result. The newest exchange (the events after the last
 * such point before the log's last shown event) is never cut away, and the older part is never empty.
 */
export function compactionCuts(events: readonly StoredEvent[]): number[] {
  const first = events[0]?.seq;
  const lastShown = events.findLast(({ event }) => SHOWN.has(event.type))?.seq;
  if (first === undefined || lastShown === undefined) return [];
  const cuts = new Set<number>();
  for (const { seq, event } of events) {
    const cut = event.type === 'result' ? seq : event.type === 'user' ? seq - 1 : undefined;
    if (cut !== undefined && cut >= first && cut < lastShown) cuts.add(cut);
  }
  return [...cuts];
}
