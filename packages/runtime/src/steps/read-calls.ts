import { type CallItem, type StoredEvent, storedCallName } from '@agentstep/protocol';
import { CallNotFoundError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';

/** The stored call events of a batch's items, by position. Throws CallNotFound for a missing one. */
export async function readCalls(
  log: EventLog,
  ref: { session: string; batch: string },
  items: readonly CallItem[],
): Promise<Map<number, StoredEvent>> {
  const calls = new Map<number, StoredEvent>();
  if (items.length === 0) return calls;
  const firstSeq = Math.min(...items.map((item) => item.seq));
  for (const stored of await log.read(ref.session, { afterSeq: firstSeq - 1 })) {
    if (stored.batch === ref.batch && stored.event.type === 'call' && stored.position !== undefined) {
      calls.set(stored.position, stored);
    }
  }
  for (const item of items) {
    if (!calls.has(item.position))
      throw new CallNotFoundError(ref.session, ref.batch, item.position, item.seq);
  }
  return calls;
}

/** The tool a stored call names, or '' when the model wrote no usable name. */
export function calledTool(stored: StoredEvent | undefined): string {
  const content = stored?.event.content;
  return content === undefined ? '' : storedCallName(content);
}

/** A call's JSON text: carried in its map item when small, else read from the log. */
export async function callTextOf(
  log: EventLog,
  item: CallItem & { session: string; batch: string },
): Promise<string | undefined> {
  if (typeof item.call === 'string') return item.call;
  return (await readCalls(log, item, [item])).get(item.position)?.event.content;
}
