import type { StoredEvent } from '@agentstep/protocol';
import type { Context, Hono } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import * as z from 'zod';
import type { ApiDeps } from './api-deps.js';
import { validationError } from './api-error.js';
import { MetricCursor } from './metric-cursor.js';
import { addressedSession, existingLog } from './session-access.js';
import { sessionState, wireEvent } from './session-state.js';

const DEFAULT_POLL_MS = 250;
const DEFAULT_HEARTBEAT_MS = 15_000;

const resumeSchema = z.coerce.number().int().min(0);

/**
 * `GET /sessions/{id}/stream`: server-sent events. Every stored event after the resume point
 * (`Last-Event-ID`, else `?after=`, else the start) as `id: seq`, `event: type`, `data: JSON`; then
 * live ones as they are stored; when no turn runs, `event: done` with the last turn's status, and
 * the stream ends. Each model step's `metric` event travels too, without an id. The stream only
 * reads the log and the ledger: a client that leaves changes nothing.
 */
export function addStreamRoute(app: Hono, deps: ApiDeps): void {
  app.get('/sessions/:id/stream', async (c) => {
    const after = resumePoint(c);
    const seen = deps.changes?.version(addressedSession(c, deps).stored);
    const { stored, events } = await existingLog(c, deps);
    return streamSSE(c, (stream) => tail(stream, deps, { session: stored, backlog: events, after, seen }));
  });
}

function resumePoint(c: Context): number {
  const given = c.req.header('last-event-id') ?? c.req.query('after');
  if (given === undefined) return 0;
  const parsed = resumeSchema.safeParse(given);
  if (!parsed.success) throw validationError('resume point (Last-Event-ID or after)', parsed.error);
  return parsed.data;
}

/** Where a stream starts: the session's log as read, the resume point, and the log's version before the read. */
interface TailStart {
  session: string;
  backlog: StoredEvent[];
  after: number;
  seen: number | undefined;
}

async function tail(stream: SSEStreamingApi, deps: ApiDeps, start: TailStart): Promise<void> {
  const { session, backlog, after } = start;
  let { seen } = start;
  const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
  const heartbeatMs = deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  let state = sessionState(backlog);
  let seq = after;
  let fresh = backlog.filter((stored) => stored.seq > after);
  const metrics = MetricCursor.after(after, backlog, await deps.usage.list(session));
  // A turn's metrics come before its turn_end, and each step's as soon as the step is logged.
  const sendMetrics = async () => {
    for (const metric of metrics.owed(await deps.usage.list(session)))
      await stream.writeSSE({ event: 'metric', data: JSON.stringify(metric) });
  };
  let quietSince = Date.now();
  while (!stream.aborted && !stream.closed) {
    for (const stored of fresh) {
      if (stored.event.type === 'turn_end') await sendMetrics();
      await stream.writeSSE({
        id: String(stored.seq),
        event: stored.event.type,
        data: JSON.stringify(wireEvent(stored)),
      });
      seq = stored.seq;
      quietSince = Date.now();
    }
    if (fresh.length > 0) await sendMetrics();
    if (!state.running && seq >= state.lastSeq) {
      const end = state.lastEnd;
      const done = { status: end?.payload.status ?? 'done', turn: end?.payload.turn ?? null };
      await stream.writeSSE({ event: 'done', data: JSON.stringify(done) });
      return;
    }
    if (Date.now() >= deadline) return;
    if (Date.now() - quietSince >= heartbeatMs) {
      await stream.write(': keep-alive\n\n');
      quietSince = Date.now();
    }
    await wait(deps, session, Math.min(heartbeatMs, deps.pollMs ?? DEFAULT_POLL_MS), seen);
    seen = deps.changes?.version(session);
    fresh = await deps.log.read(session, { afterSeq: seq });
    state = sessionState(fresh, state);
  }
}

function wait(deps: ApiDeps, session: string, ms: number, seen: number | undefined): Promise<void> {
  return deps.changes
    ? deps.changes.wait(session, ms, seen)
    : new Promise((settle) => setTimeout(settle, ms));
}
