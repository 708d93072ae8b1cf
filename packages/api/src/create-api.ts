import { Hono } from 'hono';
import { addA2aRoutes } from './a2a/a2a-routes.js';
import { addAgUiRoute } from './ag-ui-route.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError, apiErrorOf } from './api-error.js';
import { addApprovalRoutes } from './approval-routes.js';
import { addChatRoutes } from './chat-routes.js';
import { cors } from './cors.js';
import { addForkRoute } from './fork-route.js';
import { addListRoutes } from './list-routes.js';
import { addMcpRoute } from './mcp-route.js';
import { addQueueRoutes } from './queue-routes.js';
import { refuseLongUrls } from './refuse-long-urls.js';
import { TENANT } from './session-access.js';
import { sessionFeedsOf } from './session-feeds.js';
import { addSessionRoutes } from './session-routes.js';
import { addStreamRoute } from './stream-route.js';
import { TurnFollowers } from './turn-followers.js';
import { addTurnRoutes } from './turn-routes.js';
import { addWorkflowRoutes } from './workflow-routes.js';

/** How long a client is told to wait before it asks again while the store is unavailable. */
const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * The AgentStep HTTP API as one Hono app: the same routes, validation and answers on API Gateway
 * and on `agentstep serve`. Every refusal has the shape `{"error": {"code", "message", "fields"?}}`;
 * a store that cannot be reached is a 503 `StoreUnavailable` with `Retry-After`, never a 500.
 */
export function createApi(given: ApiDeps): Hono {
  // One reader per session for every stream this app serves (one stream per invocation on Lambda).
  // A message queued or withdrawn here wakes the readers of its session at once.
  const queue = given.changes ? given.changes.watchQueue(given.queue) : given.queue;
  const deps: ApiDeps = { ...given, queue, feeds: sessionFeedsOf(given) };
  const app = new Hono();
  // First, so refusals carry CORS headers too and a preflight passes before the tenant check.
  if (deps.corsOrigins?.length) app.use(cors(deps.corsOrigins));
  app.use(refuseLongUrls);
  // Who is calling, once per request: a JWT's check may read the issuer's keys.
  app.use(async (c, next) => {
    c.set(TENANT, await deps.tenantOf(c.req.raw, c.env));
    await next();
  });
  addTurnRoutes(app, deps);
  addListRoutes(app, deps);
  addSessionRoutes(app, deps);
  addForkRoute(app, deps);
  addQueueRoutes(app, deps);
  addStreamRoute(app, deps);
  addApprovalRoutes(app, deps);
  addWorkflowRoutes(app, deps);
  // The streams following each chat and AG-UI turn, so that a client leaving one cancels it only when no other follows it.
  const followers = new TurnFollowers();
  addChatRoutes(app, deps, followers);
  addAgUiRoute(app, deps, followers);
  addMcpRoute(app, deps);
  addA2aRoutes(app, deps);
  app.notFound((c) =>
    c.json(new ApiError(404, 'NotFound', `No route ${c.req.method} ${c.req.path}.`).body(), 404),
  );
  app.onError((error, c) => {
    const refusal = apiErrorOf(error);
    const retryAfter =
      refusal.retryAfterSeconds ?? (refusal.status === 503 ? STORE_RETRY_AFTER_SECONDS : undefined);
    if (retryAfter !== undefined) c.header('retry-after', String(retryAfter));
    return c.json(refusal.body(), refusal.status);
  });
  return app;
}
