import type { AgentStepClient, StreamItem } from '@agentstep/client';

/** What a stream has yielded so far: its items, in order. */
export type Seen = readonly StreamItem[];

/**
 * Follows `session`'s stream (after `after`, when given) until `enough` holds for the items yielded
 * on it, then leaves it (the connection drops, as a client's would) and resolves with them. Throws
 * when the stream ends first, naming what it was waiting for, or when `signal` aborts.
 */
export async function followUntil(
  client: AgentStepClient,
  session: string,
  awaited: { what: string; enough: (seen: Seen) => boolean; after?: number },
  signal: AbortSignal,
): Promise<StreamItem[]> {
  const seen: StreamItem[] = [];
  const options = { signal, ...(awaited.after === undefined ? {} : { after: awaited.after }) };
  try {
    for await (const item of client.stream(session, options)) {
      seen.push(item);
      if (awaited.enough(seen)) return seen;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    throw new Error(`session ${session}'s stream gave no sign of ${awaited.what} in time (--timeout)`, {
      cause: error,
    });
  }
  throw new Error(`session ${session}'s stream ended before ${awaited.what}`);
}

/** The logged events' seqs among the items, in the order they came. */
export function seqsOf(seen: Seen): number[] {
  return seen.flatMap((item) => ('seq' in item ? [item.seq] : []));
}

/** Whether a call of the items' stream waits for approval (its `approval` event is `requested`). */
export function approvalRequested(seen: Seen): boolean {
  return seen.some(
    (item) => 'seq' in item && item.event.type === 'approval' && item.event.payload.status === 'requested',
  );
}

/** The stream's last item when it is `done`: how its turn ended. */
export function doneOf(seen: Seen): Extract<StreamItem, { type: 'done' }> | undefined {
  const last = seen.at(-1);
  return last?.type === 'done' ? last : undefined;
}
