import { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { addApprovalRoutes } from './approval-routes.js';
import { addListRoutes } from './list-routes.js';
import { TENANT } from './session-access.js';
import { addSessionRoutes } from './session-routes.js';
import { addStreamRoute } from './stream-route.js';
import { addTurnRoutes } from './turn-routes.js';
import { addWorkflowRoutes } from './workflow-routes.js';

/**
 * The AgentStep HTTP API as one Hono app: the same routes, validation and answers on API Gateway
 * and on `agentstep serve`. Every refusal has the shape `{"error": {"code", "message", "fields"?}}`.
 */
export function createApi(deps: ApiDeps): Hono {
  const app = new Hono();
  // Who is calling, once per request: a JWT's check may read the issuer's keys.
  app.use(async (c, next) => {
    c.set(TENANT, await deps.tenantOf(c.req.raw, c.env));
    await next();
  });
  addTurnRoutes(app, deps);
  addListRoutes(app, deps);
  addSessionRoutes(app, deps);
  addStreamRoute(app, deps);
  addApprovalRoutes(app, deps);
  addWorkflowRoutes(app, deps);
  app.notFound((c) =>
    c.json(new ApiError(404, 'NotFound', `No route ${c.req.method} ${c.req.path}.`).body(), 404),
  );
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.body(), error.status);
    console.error(error);
    return c.json(new ApiError(500, 'InternalError', 'The request failed on the server.').body(), 500);
  });
  return app;
}
