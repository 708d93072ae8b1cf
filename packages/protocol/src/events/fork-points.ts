import type { StoredEvent } from './stored-event.js';

/**
 * The seqs a session may be forked at, in order: each turn's end (`turn_end`) and each batch's
 * results (`result`), where a fork leaves nothing half done: no step without its results, no call
 * without its one result.
 */
export function forkPoints(events: readonly StoredEvent[]): number[] {
  return events.flatMap(({ seq, event }) =>
    event.type === 'turn_end' || event.type === 'result' ? [seq] : [],
  );
}

/** The fork points nearest `at`: the last one before it and the first one after it, where they exist. */
export function nearestForkPoints(points: readonly number[], at: number): number[] {
  const before = points.findLast((seq) => seq < at);
  const after = points.find((seq) => seq > at);
  return [before, after].filter((seq) => seq !== undefined);
}
