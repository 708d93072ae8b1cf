import {
  type SessionsList,
  TURN_END_STATUSES,
  type WorkflowRunListItem,
  type WorkflowRunsList,
} from '@agentstep/protocol';
import { type DirectoryEntry, runLogOf, tenantTag, workflowRunSummary } from '@agentstep/runtime';
import type { Context, Hono } from 'hono';
import * as z from 'zod';
import type { ApiDeps } from './api-deps.js';
import { ApiError, validationError } from './api-error.js';
import { isoTime } from './iso-time.js';
import { matchingSessions } from './matching-sessions.js';
import { tenantOf } from './session-access.js';
import { sessionsTotals } from './sessions-totals.js';
import { storedSession } from './tenants.js';

const DEFAULT_PAGE = 50;

const pageSchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE),
  after: z.string().min(1).optional(),
});

/** An instant as a query gives it: an ISO 8601 date (midnight UTC) or date-time with its offset. */
const instantSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]).transform(Date.parse);

const sessionsQuerySchema = pageSchema.extend({
  q: z.string().trim().max(200).optional(),
  status: z.enum(['idle', 'running', 'waiting']).optional(),
  lastTurn: z.enum(TURN_END_STATUSES).optional(),
  createdAfter: instantSchema.optional(),
  createdBefore: instantSchema.optional(),
});

/**
 * `GET /sessions?q=&status=&lastTurn=&createdAfter=&createdBefore=&limit=&after=`: the caller's
 * sessions started over the API, newest first, each with its summary, and `totals` of the page.
 * `q` keeps those whose id or title holds it (ignoring case); `status` those `idle`, `running` or
 * `waiting`; `lastTurn` those whose last ended turn ended so (`failed` finds the failed ones);
 * `createdAfter` (inclusive) and `createdBefore` (exclusive) take an ISO 8601 date or date-time.
 * `GET /workflows?limit=&after=`: its workflow runs, newest first. `next` is the `after` of the
 * next page, `null` on the last; a filtered page may be followed by an empty one.
 */
export function addListRoutes(app: Hono, deps: ApiDeps): void {
  app.get('/sessions', async (c) => {
    const { limit, after, ...filter } = queryOf(c, sessionsQuerySchema);
    const tenant = tenantOf(c);
    const entries = pageFrom(await deps.directory.list(tenantTag(tenant), 'session'), after);
    const storedOf = (id: string) => storedSession(tenant, id);
    const page = await matchingSessions(entries, filter, limit, storedOf, deps);
    const list: SessionsList = { ...page, totals: sessionsTotals(page.sessions) };
    return c.json(list);
  });
  app.get('/workflows', async (c) => {
    const query = queryOf(c, pageSchema);
    const tenant = tenantOf(c);
    const entries = pageFrom(await deps.directory.list(tenantTag(tenant), 'workflow'), query.after);
    const page = entries.slice(0, query.limit);
    const runs = await Promise.all(
      page.map((entry) => runItem(entry, storedSession(tenant, entry.id), deps)),
    );
    const next = entries.length > page.length ? (page.at(-1)?.id ?? null) : null;
    const list: WorkflowRunsList = { runs: runs.filter((run) => run !== undefined), next };
    return c.json(list);
  });
}

function queryOf<Schema extends z.ZodType>(c: Context, schema: Schema): z.infer<Schema> {
  const query = schema.safeParse(c.req.query());
  if (!query.success) throw validationError('query', query.error);
  return query.data;
}

/** The entries after the one `after` names (all without it); 400 when it names none. */
function pageFrom(entries: DirectoryEntry[], after: string | undefined): DirectoryEntry[] {
  if (after === undefined) return entries;
  const at = entries.findIndex((entry) => entry.id === after);
  if (at === -1)
    throw new ApiError(400, 'ValidationError', 'The query does not match what this route takes.', [
      { path: 'after', message: `names nothing listed here: use the next of the previous page` },
    ]);
  return entries.slice(at + 1);
}

async function runItem(
  entry: DirectoryEntry,
  stored: string,
  deps: ApiDeps,
): Promise<WorkflowRunListItem | undefined> {
  const log = runLogOf(stored, await deps.log.read(stored));
  if (log === undefined) return undefined;
  const { workflow, status, lastSeq } = workflowRunSummary(log, entry.id);
  return { run: entry.id, workflow, status, startedAt: isoTime(entry.createdAt), lastSeq };
}
