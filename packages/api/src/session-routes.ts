import { type EventsPage, loggedEvent } from '@agentstep/protocol';
import type { Hono } from 'hono';
import * as z from 'zod';
import type { ApiDeps } from './api-deps.js';
import { validationError } from './api-error.js';
import { existingLog, tenantView } from './session-access.js';
import { sessionSummary } from './session-summary.js';

const DEFAULT_PAGE = 100;

const pageSchema = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PAGE),
});

/** `GET /sessions/{id}` (where its turns stand, what it spent) and `GET /sessions/{id}/events` (its log, paged). */
export function addSessionRoutes(app: Hono, deps: ApiDeps): void {
  app.get('/sessions/:id', async (c) => {
    const { session, stored, events } = await existingLog(c, deps);
    return c.json(await sessionSummary({ id: session, stored, events }, deps));
  });
  app.get('/sessions/:id/events', async (c) => {
    const page = pageSchema.safeParse(c.req.query());
    if (!page.success) throw validationError('query', page.error);
    const { after, limit } = page.data;
    const { events, ...addressed } = await existingLog(c, deps);
    const rest = events.filter((stored) => stored.seq > after);
    const shown = rest.slice(0, limit);
    const next = rest.length > limit ? (shown.at(-1)?.seq ?? null) : null;
    const view = tenantView(addressed);
    const answer: EventsPage = { events: shown.map((stored) => loggedEvent(view(stored))), next };
    return c.json(answer);
  });
}
