import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiDeps } from './api-deps.js';
import { MAX_MCP_BODY_BYTES } from './mcp-ask.js';
import { askStreamEventStore, askStreamOf } from './mcp-ask-stream.js';
import { requestEventStore } from './mcp-request-stream.js';
import { agentMcpServer } from './mcp-server.js';
import { readCapped } from './read-body.js';
import { refuseInvalidMcpParams } from './refuse-invalid-mcp-params.js';

/** How long a client whose stream closed before its answer waits before it resumes the stream. */
export const MCP_RETRY_MS = 1000;

/**
 * Answers one MCP request as the agent's server, acting for `tenant` (stateless: a new server and
 * transport per request, no MCP session). A request whose client goes away has its calls aborted.
 * A body over `MAX_MCP_BODY_BYTES` is 413. A request answered on a stream is resumable: its events
 * carry ids that `GET /mcp` resumes it from (an `ask` from the log, any other request by answering
 * it anew), and clients that read them (protocol 2025-11-25 on) get a priming event and `retry`
 * first (decision 0049).
 */
export async function answerMcp(deps: ApiDeps, tenant: string, request: Request): Promise<Response> {
  const body = await readCapped(request.body, MAX_MCP_BODY_BYTES);
  const message = jsonOf(body);
  const ask = askStreamOf(message);
  const eventStore = ask === undefined ? requestEventStore(message) : askStreamEventStore(ask);
  const server = agentMcpServer(deps, tenant, ask);
  // No session id generator: stateless, every request stands alone.
  const transport = new WebStandardStreamableHTTPServerTransport({
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    ...(eventStore === undefined ? {} : { eventStore, retryInterval: MCP_RETRY_MS }),
  });
  // A client that leaves closes the transport, which aborts its calls: an ask stops waiting (its turn runs on).
  request.signal.addEventListener('abort', () => void transport.close(), { once: true });
  await server.connect(transport);
  refuseInvalidMcpParams(transport);
  // A body that is not JSON is the transport's to refuse, as it reads it.
  if (message === undefined) return transport.handleRequest(new Request(request, { body }));
  return transport.handleRequest(request, { parsedBody: message });
}

function jsonOf(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}
