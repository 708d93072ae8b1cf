import type { Context, Hono } from 'hono';
import type { ApiDeps } from '../api-deps.js';
import { tenantOf } from '../session-access.js';
import { A2A_PATHS, type A2aAgentInfo, a2aAgentCard } from './a2a-card.js';

/** The card's agent when the API is not told of one. */
const UNNAMED: A2aAgentInfo = { name: 'agent', auth: 'bearer' };

/**
 * The agent as an A2A 1.0 server (decision 0050), with the same tenants and credentials as every
 * route: `GET /.well-known/agent-card.json`, the JSON-RPC binding at `POST /a2a` and the HTTP+JSON
 * binding under `/a2a/rest`. A task is a turn, its context the session.
 */
export function addA2aRoutes(app: Hono, deps: ApiDeps): void {
  app.get('/.well-known/agent-card.json', (c) => {
    tenantOf(c);
    const card = a2aAgentCard(deps.agentInfo?.() ?? UNNAMED, publicBase(c), deps.toolset.descriptions);
    c.header('cache-control', 'private, max-age=300');
    return c.json(card);
  });
  app.post(A2A_PATHS.jsonRpc, async (c) => {
    // Loaded with the first A2A request: the other routes do not pay for it.
    const { answerA2aJsonRpc } = await import('./a2a-json-rpc.js');
    return answerA2aJsonRpc(c, deps);
  });
  app.on(['GET', 'POST'], `${A2A_PATHS.rest}/*`, async (c) => {
    const { answerA2aRest } = await import('./a2a-rest.js');
    return answerA2aRest(c, deps, A2A_PATHS.rest);
  });
}

/**
 * The API's address as its callers see it: behind API Gateway, its scheme (`X-Forwarded-Proto`),
 * domain and the path before the route (the stage, or a custom domain's base path); elsewhere the
 * request's origin.
 */
function publicBase(c: Context): string {
  const context = (c.env as { requestContext?: { domainName?: string; path?: string } } | undefined)
    ?.requestContext;
  if (!context?.domainName || !context.path?.endsWith(c.req.path)) return new URL(c.req.url).origin;
  const scheme = c.req.header('x-forwarded-proto') ?? 'https';
  return `${scheme}://${context.domainName}${context.path.slice(0, context.path.length - c.req.path.length)}`;
}
