import type { CallOutcome, StoredEvent } from '@agentstep/protocol';
import type { QueuedMessage, StepUsage } from '@agentstep/runtime';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { ApiDeps } from './api-deps.js';
import { apiErrorOf } from './api-error.js';
import { LiveTail } from './live-tail.js';
import { MetricCursor } from './metric-cursor.js';
import { OpenBatch } from './open-batch.js';
import type { QueueRead, QueueWatch } from './queue-watch.js';
import { type FeedSeat, sessionFeedsOf } from './session-feeds.js';
import { type Frame, type StreamEnd, type StreamFormat, WAITING } from './stream-format.js';

/** How often a log is read when nothing wakes its reader (`ApiDeps.pollMs`'s default). */
export const DEFAULT_POLL_MS = 250;
const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * Where a stream starts and how it goes on: the log as read (`backlog`, read after the log's version
 * `seen` was taken), the resume point, when it is over, how its events read to the caller and in which format.
 */
export interface LogFollow {
  /** The log, by the id it is stored under. */
  session: string;
  backlog: StoredEvent[];
  /** Events up to this seq are not sent. */
  after: number;
  seen: number | undefined;
  /** Sees every event read, oldest first (the backlog first); says when the stream is over. */
  ended: (events: readonly StoredEvent[]) => StreamEnd | undefined;
  /** What `ended` said of the backlog. */
  end: StreamEnd | undefined;
  /** The event as the caller sees it. */
  present: (stored: StoredEvent) => StoredEvent;
  format: StreamFormat;
  /**
   * Also follow the session's queue, with what its watch read just before the backlog: its changes
   * go out in the format's queue frames, and the stream is not over while a message waits for its
   * turn. The queue is always read before the log, so a queued turn that starts in between is seen
   * in the log read after. @default none
   */
  queue?: { watch: QueueWatch; first: QueueRead };
  /** The usage ledger as read after `backlog`. @default read when the stream starts */
  entries?: readonly StepUsage[];
  /** Whether `backlog` is the whole log, for the session's reader to keep whole. @default false */
  whole?: boolean;
  /** Called when the client goes away before the stream is over. */
  onAbort?: () => void;
  /** Called once the stream is over, whichever way it ended. */
  onClose?: () => void;
}

/**
 * What the tail of a stream runs on: its start, the text of model steps as they stream, its place
 * at its session's reader, and the open batch it follows (for a format that shows outcomes).
 */
interface TailStart extends LogFollow {
  live: LiveTail;
  seat: FeedSeat;
  batch: OpenBatch | undefined;
}

/**
 * Answers the request with server-sent events: the backlog after the resume point, then events as
 * they are logged, taken from the session's one reader in this process (`SessionFeeds`; each
 * model step's text as it streams, metrics before their turn's end, and, for
 * a format that shows them, the outcomes of a batch's calls as they are stored while the batch
 * waits), until `ended` says the stream is over (the format's `done` frames; a wait only once no
 * call of the waiting batch is still running), the client leaves, or the stream's time is up (or
 * its client reads so slowly that it falls past the reader's limit: the same resumable end). A
 * read that fails ends the stream with the format's `error` frames.
 */
export function followLog(c: Context, deps: ApiDeps, follow: LogFollow): Response {
  const { format, session, onAbort, onClose, backlog, after } = follow;
  format.catchUp?.(backlog.filter((stored) => stored.seq <= after));
  for (const [name, value] of Object.entries(format.headers)) c.header(name, value);
  return streamSSE(c, (stream) => {
    const feeds = sessionFeedsOf(deps);
    const live = new LiveTail(deps.live, session, feeds.limit);
    const batch = format.outcome === undefined ? undefined : new OpenBatch();
    const seat = feeds.join(session, {
      seq: Math.max(after, backlog.at(-1)?.seq ?? 0),
      seen: follow.seen,
      queue: follow.queue !== undefined,
      ...(batch ? { outcomes: () => batch.wanted } : {}),
      ...(follow.whole ? { log: backlog } : {}),
    });
    if (onAbort) stream.onAbort(onAbort);
    return tail(stream, deps, { ...follow, live, seat, batch })
      .catch(async (error: unknown) => {
        await stream.write(format.error(apiErrorOf(error).body()).map(sseText).join(''));
      })
      .finally(() => {
        seat.leave();
        live.stop();
        onClose?.();
      });
  });
}

async function tail(stream: SSEStreamingApi, deps: ApiDeps, start: TailStart): Promise<void> {
  const { session, backlog, after, ended, present, live, format, seat } = start;
  let { end } = start;
  const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
  const heartbeatMs = deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let seq = after;
  let fresh = backlog.filter((stored) => stored.seq > after);
  // The ledger as of the last read of the log: the session's reader reads it again when the log grew
  // (and a stream that joins a running reader starts from its read).
  let entries: readonly StepUsage[] = start.entries ?? seat.ledger() ?? (await deps.usage.list(session));
  const metrics = MetricCursor.after(after, backlog, entries);
  const batch = start.batch;
  batch?.see(backlog.filter((stored) => stored.seq <= after));
  // The open batch's outcomes as last read; what the batch takes of them goes out after the round's events.
  let found: CallOutcome[] = [];
  // A round's frames go out in one write when the round ends (`flush`): one chunk, not one a frame.
  const pending: string[] = [];
  const send = (frames: Frame[]) => {
    for (const frame of frames) pending.push(sseText(frame));
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending.length = 0;
    await stream.write(text);
  };
  // A step's text goes after what was logged before the step began, before the step's own events.
  const sendLive = (logged: number) => {
    const due = live.due(logged);
    for (const text of due) send(format.live(text));
    return due.length;
  };
  // A turn's metrics come before its turn_end, and each step's as soon as the step is logged.
  const sendMetrics = (turn?: string) => {
    for (const metric of metrics.owed(entries, turn)) send(format.metric(metric));
  };
  let queued = start.queue?.first;
  // Sends what the last read of the queue found (once a round, as it is read once a round);
  // whether a message waits (the stream goes on).
  const sendQueue = () => {
    for (const change of queued?.changes ?? []) send(format.queue?.(change) ?? []);
    return queued?.waiting ?? false;
  };
  let quietSince = Date.now();
  while (!stream.aborted && !stream.closed) {
    for (const stored of fresh) {
      sendLive(stored.seq - 1);
      if (stored.event.type === 'turn_end') sendMetrics(stored.event.payload.turn);
      send(format.event(present(stored), live.streamed(stored)));
      batch?.see([stored]);
      seq = stored.seq;
      quietSince = Date.now();
    }
    for (const outcome of batch?.take(found) ?? []) {
      send(format.outcome?.(outcome) ?? []);
      quietSince = Date.now();
    }
    if (fresh.length > 0) sendMetrics();
    if (sendLive(seq) > 0) quietSince = Date.now();
    if (sendQueue() && end !== undefined) end = undefined;
    // A client answers a wait once it has every other call's outcome (the AI SDK's
    // lastAssistantMessageIsCompleteWithApprovalResponses): the stream goes on until they are sent.
    if (end?.status === WAITING && batch?.underway) end = undefined;
    if (end !== undefined) {
      send(format.done(end));
      await flush();
      return;
    }
    await flush();
    if (Date.now() >= deadline) return;
    if (Date.now() - quietSince >= heartbeatMs) {
      await stream.write(': keep-alive\n\n');
      quietSince = Date.now();
    }
    // Never past the cap: the stream closes cleanly before its transport would cut it.
    const quietMs = Math.min(heartbeatMs, deps.pollMs ?? DEFAULT_POLL_MS, Math.max(0, deadline - Date.now()));
    // Pieces held for the log to catch up to their step wait for the next read, not for more pieces.
    await Promise.race([seat.next(quietMs), ...(live.holding ? [] : [live.arrival()])]);
    const read = await seat.take();
    // Fallen too far behind: it ends as a stream whose time is up does, for its client to resume.
    if (read === undefined || live.overflowed) return;
    queued = await queueRound(start.queue?.watch, read.queued, queued);
    found = batch ? [...read.outcomes].flatMap(([listed, stored]) => batch.pick(listed, stored)) : [];
    if (read.entries !== undefined && read.entries.length >= entries.length) entries = read.entries;
    fresh = read.events;
    end = ended(fresh);
  }
}

/** What the stream's watch makes of the queue as its session's reader last listed it (nothing new before the first listing). */
async function queueRound(
  watch: QueueWatch | undefined,
  listed: readonly QueuedMessage[] | undefined,
  last: QueueRead | undefined,
): Promise<QueueRead | undefined> {
  if (watch === undefined) return undefined;
  if (listed === undefined) return { changes: [], waiting: last?.waiting ?? false };
  return watch.see(listed);
}

/**
 * Waits until the log stored as `session` changes after version `seen` (with `deps.changes`), or
 * `ms` passes; without `changes`, just `ms`, after which the caller reads the log again.
 */
export function waitForLog(
  deps: ApiDeps,
  session: string,
  ms: number,
  seen: number | undefined,
): Promise<void> {
  return deps.changes
    ? deps.changes.wait(session, ms, seen)
    : new Promise((settle) => setTimeout(settle, ms));
}

/** Each frame's text on the wire, made once for every stream that sends the same frame. */
const sseTexts = new WeakMap<Frame, string>();

/** A frame as server-sent events put it: `event:`, one `data:` line per line of its data, `id:`. */
function sseText(frame: Frame): string {
  let text = sseTexts.get(frame);
  if (text === undefined) {
    const data = frame.data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}`)
      .join('\n');
    text = `${frame.event ? `event: ${frame.event}\n` : ''}${data}\n${frame.id === undefined ? '' : `id: ${frame.id}\n`}\n`;
    sseTexts.set(frame, text);
  }
  return text;
}
