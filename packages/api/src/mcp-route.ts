import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { agentMcpServer } from './mcp-server.js';
import { MAX_BODY_BYTES } from './read-body.js';
import { tenantOf } from './session-access.js';

/** JSON-RPC's code for a request the server does not take. */
const METHOD_NOT_ALLOWED_CODE = -32000;

/**
 * `POST /mcp`: the agent as an MCP server (streamable HTTP, stateless: a new server and transport
 * per request, no MCP session), acting for the caller's tenant. A body over {@link MAX_BODY_BYTES}
 * is 413; a request whose client goes away has its calls aborted. `GET` and `DELETE /mcp`, which
 * only a stateful server answers, are 405.
 */
export function addMcpRoute(app: Hono, deps: ApiDeps): void {
  app.post('/mcp', async (c) => {
    const server = agentMcpServer(deps, tenantOf(c));
    // No session id generator: stateless, every request stands alone.
    const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: MAX_BODY_BYTES });
    // A client that leaves closes the transport, which aborts its calls: an ask stops waiting (its turn runs on).
    c.req.raw.signal.addEventListener('abort', () => void transport.close(), { once: true });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  app.on(['GET', 'DELETE'], '/mcp', (c) => {
    c.header('allow', 'POST');
    const message = `This MCP server is stateless: send every message with POST /mcp, not ${c.req.method}.`;
    return c.json({ jsonrpc: '2.0', error: { code: METHOD_NOT_ALLOWED_CODE, message }, id: null }, 405);
  });
}
