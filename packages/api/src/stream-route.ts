import type { StoredEvent } from '@agentstep/protocol';
import type { QueuedMessage, StepUsage } from '@agentstep/runtime';
import type { Context, Hono } from 'hono';
import * as z from 'zod';
import { AiSdkFormat } from './ai-sdk-format.js';
import type { ApiDeps } from './api-deps.js';
import { validationError } from './api-error.js';
import { followLog } from './follow-log.js';
import { QueueWatch } from './queue-watch.js';
import { type AddressedSession, addressedSession, existingLog, tenantView } from './session-access.js';
import { type FeedOpening, sessionFeedsOf } from './session-feeds.js';
import { type SessionState, sessionState } from './session-state.js';
import { agentStepFormat, type StreamEnd, type StreamFormat } from './stream-format.js';
import { addressedRun, existingRun } from './workflow-access.js';

const resumeSchema = z.coerce.number().int().min(0);

/**
 * `GET /sessions/{id}/stream` and `GET /workflows/{run}/stream`: server-sent events. Every stored event after the resume point
 * (`Last-Event-ID`, else `?after=`, else the start) as `id: seq`, `event: type`, `data: JSON`; then
 * live ones as they are stored; when no turn runs (a run: once it has ended), `event: done` with
 * the last turn's (the run's) status, and the stream ends. A request whose resume point is at or past
 * the log's last seq once it is over answers `204` without a body, so an `EventSource` stops
 * reconnecting. Each model step's `metric` event travels too, without an id, before its turn's
 * `turn_end`. With `live`, a model step's thinking and answer also travel as the model writes them,
 * without ids, between the events logged before the step and its own (only for steps the stream saw
 * from their first piece: a stream that joins or resumes mid-step reads that step from its stored
 * events). The stream only
 * reads the log and the ledger: a client that leaves changes nothing. Should reading fail (the
 * store is unavailable), the stream ends with an `event: error` frame in the API's error shape,
 * from which the client resumes with `Last-Event-ID`.
 */
export function addStreamRoute(app: Hono, deps: ApiDeps): void {
  app.get('/sessions/:id/stream', (c) =>
    streamLog(c, deps, addressedSession(c), { read: existingLog, ended: turnsEnd, queue: true }),
  );
  app.get('/workflows/:run/stream', (c) =>
    streamLog(c, deps, addressedRun(c), { read: existingRun, ended: runEnd }),
  );
}

/** What a stream follows: how its log is read (404 when there is none), and when it is over. */
interface Followed {
  read: (
    c: Context,
    deps: ApiDeps,
    addressed: AddressedSession,
  ) => Promise<{ stored: string; events: StoredEvent[]; forkedAt?: number }>;
  ended: EndWatch;
  /** Whether the log's session may queue messages, whose changes the stream shows. @default false */
  queue?: boolean;
}

/** Streams the addressed log from the request's resume point until it is over. */
async function streamLog(c: Context, deps: ApiDeps, addressed: AddressedSession, followed: Followed) {
  const after = resumePoint(c);
  const format = formatOf(c);
  // The queue before the log: a queued turn that starts in between is in the log read after it.
  const watch = followed.queue ? new QueueWatch(deps, addressed.stored) : undefined;
  const { stored, events, forkedAt, queued, seen, entries }: OpenedLog = watch
    ? await openedSession(c, deps, addressed, followed)
    : { ...(await followed.read(c, deps, addressed)), seen: deps.changes?.version(addressed.stored) };
  const first = queued && (await watch?.see(queued));
  const ended = followed.ended(forkedAt);
  const end = ended(events);
  // Nothing to send and nothing to come: 204 tells an EventSource to stop reconnecting.
  if (end !== undefined && !first?.waiting && after >= (events.at(-1)?.seq ?? 0)) return c.body(null, 204);
  return followLog(c, deps, {
    session: stored,
    backlog: events,
    after,
    seen,
    ended,
    end,
    present: tenantView(addressed),
    format,
    whole: true,
    ...(entries ? { entries } : {}),
    ...(watch && first ? { queue: { watch, first } } : {}),
  });
}

/** What a stream starts from: its log as read after version `seen`, and, for a session, its queue read before and its ledger after. */
interface OpenedLog {
  stored: string;
  events: StoredEvent[];
  forkedAt?: number;
  seen: number | undefined;
  queued?: readonly QueuedMessage[];
  entries?: readonly StepUsage[];
}

/**
 * A session stream's first read: what the session's reader read last, when nothing changed since;
 * else one read shared by the streams of the session that open together.
 */
async function openedSession(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession,
  followed: Followed,
): Promise<OpenedLog> {
  const feeds = sessionFeedsOf(deps);
  const current = feeds.current(addressed.stored);
  if (current === undefined) {
    const opened = await feeds.opening(addressed.stored, () => openingRead(c, deps, addressed, followed));
    return { stored: addressed.stored, ...opened };
  }
  const origin = await deps.log.origin(addressed.stored);
  return { stored: addressed.stored, ...current, ...(origin ? { forkedAt: origin.seq } : {}) };
}

/** One stream's first read, in the order it reads: the queue, the version, the log, then the ledger. */
async function openingRead(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession,
  followed: Followed,
): Promise<FeedOpening> {
  // The queue before the log: a queued turn that starts in between is in the log read after it.
  const queued = await deps.queue.list(addressed.stored);
  // Read before the log: a change in between wakes the stream at once.
  const seen = deps.changes?.version(addressed.stored);
  const { events, forkedAt } = await followed.read(c, deps, addressed);
  const entries = await deps.usage.list(addressed.stored);
  return { events, queued, seen, entries, ...(forkedAt === undefined ? {} : { forkedAt }) };
}

/**
 * How a stream learns it is over: it is shown every event read, oldest first, and answers the
 * stream's end once the log says so. One per stream; `forkedAt` is a fork's last shared seq.
 */
type EndWatch = (forkedAt?: number) => (events: readonly StoredEvent[]) => StreamEnd | undefined;

/** A session's stream ends once no turn runs, with the last turn's status. */
const turnsEnd: EndWatch = (forkedAt) => {
  let state: SessionState | undefined;
  return (events) => {
    state = sessionState(events, state, forkedAt);
    if (state.running) return undefined;
    const end = state.lastEnd;
    return { status: end?.payload.status ?? 'done', turn: end?.payload.turn ?? null };
  };
};

/** A workflow run's stream ends with the run's `end` record, with its status. */
const runEnd: EndWatch = () => {
  let end: StreamEnd | undefined;
  return (events) => {
    for (const { event } of events)
      if (event.type === 'workflow' && event.payload.kind === 'end')
        end = { status: event.payload.status, turn: null };
    return end;
  };
};

const formatSchema = z.enum(['agentstep', 'ai-sdk']).default('agentstep');

/** `?format=ai-sdk`: the AI SDK's UI message stream; else AgentStep's own frames. */
function formatOf(c: Context): StreamFormat {
  const format = formatSchema.safeParse(c.req.query('format'));
  if (!format.success) throw validationError('format', format.error);
  return format.data === 'ai-sdk' ? new AiSdkFormat() : agentStepFormat;
}

function resumePoint(c: Context): number {
  const given = c.req.header('last-event-id') ?? c.req.query('after');
  if (given === undefined) return 0;
  const parsed = resumeSchema.safeParse(given);
  if (!parsed.success) throw validationError('resume point (Last-Event-ID or after)', parsed.error);
  return parsed.data;
}
