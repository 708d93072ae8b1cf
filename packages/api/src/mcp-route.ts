import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { tenantOf } from './session-access.js';

/** JSON-RPC's code for a request the server does not take. */
const METHOD_NOT_ALLOWED_CODE = -32000;

/**
 * `POST /mcp`: the agent as an MCP server (streamable HTTP, stateless: a new server and transport
 * per request, no MCP session), acting for the caller's tenant. A body over `MAX_MCP_BODY_BYTES`
 * is 413; a request whose client goes away has its calls aborted. `GET /mcp` with `Last-Event-ID`
 * resumes a stream (an ask's from the log); without it, and `DELETE /mcp`, which only a stateful
 * server answers, are 405.
 */
export function addMcpRoute(app: Hono, deps: ApiDeps): void {
  app.post('/mcp', async (c) => {
    const tenant = tenantOf(c);
    // Loaded with the first MCP request: the other routes do not pay to load the MCP SDK.
    const { answerMcp } = await import('./mcp-answer.js');
    return answerMcp(deps, tenant, c.req.raw);
  });
  app.get('/mcp', async (c, next) => {
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId === undefined) return next();
    const { resumeMcpStream } = await import('./mcp-resume.js');
    return resumeMcpStream(deps, tenantOf(c), c.req.raw, lastEventId);
  });
  app.on(['GET', 'DELETE'], '/mcp', (c) => {
    c.header('allow', 'POST');
    const message = `This MCP server is stateless: send every message with POST /mcp, not ${c.req.method} (GET /mcp only resumes a stream, with Last-Event-ID).`;
    return c.json({ jsonrpc: '2.0', error: { code: METHOD_NOT_ALLOWED_CODE, message }, id: null }, 405);
  });
}
