import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiDeps } from './api-deps.js';
import { agentMcpServer } from './mcp-server.js';
import { MAX_BODY_BYTES } from './read-body.js';

/**
 * Answers one MCP request as the agent's server, acting for `tenant` (stateless: a new server and
 * transport per request, no MCP session). A request whose client goes away has its calls aborted.
 */
export async function answerMcp(deps: ApiDeps, tenant: string, request: Request): Promise<Response> {
  const server = agentMcpServer(deps, tenant);
  // No session id generator: stateless, every request stands alone.
  const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: MAX_BODY_BYTES });
  // A client that leaves closes the transport, which aborts its calls: an ask stops waiting (its turn runs on).
  request.signal.addEventListener('abort', () => void transport.close(), { once: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}
