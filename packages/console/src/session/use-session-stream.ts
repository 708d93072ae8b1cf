import type { AgentStepClient } from '@agentstep/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { itemKey, type TimelineItem, timelineItem } from './timeline-item.js';

/** A session's timeline as its stream delivers it. */
export interface SessionStream {
  /** Every item once, in the order it arrived. */
  items: TimelineItem[];
  /** Why following the stream stopped early, if it did. */
  error: unknown;
  /**
   * The stream said no turn runs (`done`) and no turn has started since: true of a fork whose log
   * ends amid a turn it cut at a batch's results, though no `turn_end` shows it.
   */
  done: boolean;
  /** Follows the stream again after the last item shown (after sending the next turn). */
  followAgain: () => void;
}

/** How often an idle session is checked for a turn begun elsewhere (another tab, the CLI, a trigger). */
const IDLE_CHECK_MS = 3_000;

/**
 * Follows `session`'s stream from its first event; the client reconnects after a dropped connection
 * from the last `seq`, and each item is kept once by its key, so nothing is shown twice. Once the
 * stream is done, the session is checked every few seconds, and a log that grew is followed again.
 */
export function useSessionStream(session: string): SessionStream {
  const client = useClient();
  const [items, setItems] = useState<TimelineItem[]>([]);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState(false);
  const [round, setRound] = useState(0);
  const shown = useRef(new Set<string>());
  const lastSeq = useRef<number | undefined>(undefined);
  useEffect(() => {
    const stop = new AbortController();
    // Items that arrive together (a page of history, one append's events) render together.
    let arrived: TimelineItem[] = [];
    const show = () => {
      const batch = arrived;
      arrived = [];
      setItems((earlier) => [...earlier, ...batch]);
    };
    const streamOnce = async () => {
      const after = lastSeq.current === undefined ? {} : { after: lastSeq.current };
      for await (const streamed of client.stream(session, { ...after, signal: stop.signal })) {
        if (streamed.type === 'done') {
          setDone(true);
          return;
        }
        // The timeline shows a step once it is logged; its text as it streams is not shown (yet),
        // nor the queue's changes (a queued message shows once its turn has started).
        if (!('event' in streamed) && streamed.type !== 'call_outcome') continue;
        const item = timelineItem(streamed, shown.current.size);
        if (item === undefined || shown.current.has(itemKey(item))) continue;
        shown.current.add(itemKey(item));
        if ('seq' in streamed) lastSeq.current = streamed.seq;
        if (item.type === 'user') setDone(false);
        if (arrived.push(item) === 1) setTimeout(show);
      }
    };
    const follow = async () => {
      for (;;) {
        await streamOnce();
        while (!(await logGrew(client, session, lastSeq.current, stop.signal)));
      }
    };
    setError(undefined);
    follow().catch((failure: unknown) => {
      if (!stop.signal.aborted) setError(failure);
    });
    return () => stop.abort();
  }, [client, session, round]);
  return { items, error, done, followAgain: () => setRound((count) => count + 1) };
}

/**
 * Whether an idle session's log has grown past `lastSeq`, checked after {@link IDLE_CHECK_MS}:
 * never while the tab is hidden, and a failed check (the network, a 5xx) counts as no growth, to be
 * checked again. Rejects once `signal` aborts, so a page that was left stops checking.
 */
async function logGrew(
  client: AgentStepClient,
  session: string,
  lastSeq: number | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  await idle(IDLE_CHECK_MS, signal);
  if (document.hidden) return false;
  const summary = await client.get(session).catch(() => undefined);
  signal.throwIfAborted();
  return summary !== undefined && summary.lastSeq > (lastSeq ?? 0);
}

/** Waits `ms`, or rejects once `signal` aborts (at once when it already has). */
function idle(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((settle, fail) => {
    const abort = () => {
      clearTimeout(timer);
      fail(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      settle();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}
