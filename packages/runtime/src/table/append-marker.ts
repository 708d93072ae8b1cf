import type { AppendNote } from '../event-log/event-log.js';
import { sortKeys } from './sort-keys.js';

/** One part's idempotency marker (docs/decisions/0005); the first part's also holds the note. */
export interface AppendMarker {
  /** `seq` of the part's first event; the next free seq when `count` is 0. */
  firstSeq: number;
  count: number;
  /** How many parts the whole append has. */
  parts: number;
  note?: AppendNote;
}

/** The table item of one part's marker; the note is stored as JSON text. */
export function markerItem(
  session: string,
  key: string,
  part: number,
  marker: AppendMarker,
): Record<string, unknown> {
  const { note, ...fields } = marker;
  return {
    pk: session,
    sk: sortKeys.append(key, part),
    ...fields,
    ...(note === undefined ? {} : { note: JSON.stringify(note) }),
  };
}

/** A marker item as the table holds it, read back. */
export function markerOf(item: Record<string, unknown>): AppendMarker {
  const marker: AppendMarker = {
    firstSeq: item.firstSeq as number,
    count: item.count as number,
    parts: item.parts as number,
  };
  if (typeof item.note === 'string') marker.note = JSON.parse(item.note) as AppendNote;
  return marker;
}

/** The idempotency key and the part a marker's sort key names (the inverse of `sortKeys.append`). */
export function markerKeyOf(sk: string): { key: string; part: number } {
  const hash = sk.lastIndexOf('#');
  return { key: sk.slice(sortKeys.appendPrefix('').length, hash), part: Number(sk.slice(hash + 1)) };
}
