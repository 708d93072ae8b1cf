import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiDeps } from './api-deps.js';
import { MAX_MCP_BODY_BYTES } from './mcp-ask.js';
import { agentMcpServer } from './mcp-server.js';
import { refuseInvalidMcpParams } from './refuse-invalid-mcp-params.js';

/**
 * Answers one MCP request as the agent's server, acting for `tenant` (stateless: a new server and
 * transport per request, no MCP session). A request whose client goes away has its calls aborted.
 */
export async function answerMcp(deps: ApiDeps, tenant: string, request: Request): Promise<Response> {
  const server = agentMcpServer(deps, tenant);
  // No session id generator: stateless, every request stands alone.
  const transport = new WebStandardStreamableHTTPServerTransport({ maxRequestBodySize: MAX_MCP_BODY_BYTES });
  // A client that leaves closes the transport, which aborts its calls: an ask stops waiting (its turn runs on).
  request.signal.addEventListener('abort', () => void transport.close(), { once: true });
  await server.connect(transport);
  refuseInvalidMcpParams(transport);
  return transport.handleRequest(request);
}
