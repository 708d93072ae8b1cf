import type { StoredEvent } from '@agentstep/protocol';
import { userMessageKey } from '@agentstep/runtime';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';
import { answerMcp, MCP_RETRY_MS } from './mcp-answer.js';
import { type AskStreamPosition, askEventId, askStreamPosition } from './mcp-ask-stream.js';
import { mcpProgressMessage } from './mcp-progress-message.js';
import { resumedRequest } from './mcp-request-stream.js';
import { mcpTurnEnd } from './mcp-turn-end.js';
import { mcpTurnResult } from './mcp-turn-result.js';
import { storedSession } from './tenants.js';

/** JSON-RPC's code for a request the server cannot take as sent. */
const BAD_REQUEST_CODE = -32000;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };

/**
 * `GET /mcp` with `Last-Event-ID`: resumes, for `tenant` and on any server instance, the stream
 * that event id is of. Another request than an ask is answered anew (its id names it). An ask's
 * stream is resumed from the log: the progress notifications after the last one the client got
 * (numbered on from it), then the ask's answer. A turn not yet logged (the ask is starting it), or
 * still running when `deps.streamLimitMs` has passed, ends the stream without an answer: the client
 * comes back after `retry`. Another tenant's ask is never found that way (its turn is not in this
 * tenant's log). An id this server never gave is 400.
 */
export async function resumeMcpStream(
  deps: ApiDeps,
  tenant: string,
  request: Request,
  lastEventId: string,
): Promise<Response> {
  const again = resumedRequest(lastEventId);
  if (again !== undefined) return answerMcp(deps, tenant, postOf(request, again));
  const { signal } = request;
  const position = askStreamPosition(lastEventId);
  if (position === undefined) {
    const message = `Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 100))} is not an event id of this server's streams: only an ask's stream resumes.`;
    return Response.json(
      { jsonrpc: '2.0', error: { code: BAD_REQUEST_CODE, message }, id: null },
      { status: 400 },
    );
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start: async (controller) => {
      controller.enqueue(encoder.encode(`retry: ${MCP_RETRY_MS}\n\n`));
      const write = (message: JSONRPCMessage, sent: number) =>
        controller.enqueue(
          encoder.encode(`id: ${askEventId({ ...position, sent })}\ndata: ${JSON.stringify(message)}\n\n`),
        );
      try {
        await followAsk(deps, storedSession(tenant, position.session), position, write, signal);
      } catch (error) {
        // The client left (the wait was aborted): nobody reads on.
        if (!signal.aborted) throw error;
      } finally {
        if (!signal.aborted) controller.close();
      }
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}

/** Writes the ask's progress notifications after `position`, then its answer, once its turn ends. */
async function followAsk(
  deps: ApiDeps,
  stored: string,
  position: AskStreamPosition,
  write: (message: JSONRPCMessage, sent: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const { session, turn, progressToken, request } = position;
  const begun = await deps.log.appended(stored, userMessageKey(turn));
  if (begun === undefined) return;
  let seen = 0;
  let sent = position.sent;
  const onEvent = async ({ event }: StoredEvent) => {
    seen += 1;
    if (progressToken === undefined || seen <= position.sent) return;
    sent = seen;
    const params = { progressToken, progress: seen, message: mcpProgressMessage(event, session) };
    write({ jsonrpc: '2.0', method: 'notifications/progress', params }, sent);
  };
  const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
  const end = await mcpTurnEnd(
    deps,
    { stored, turn, after: begun.firstSeq - 1 },
    { onEvent, signal, deadline },
  );
  if (end === undefined) return;
  const result = await mcpTurnResult(deps, stored, position);
  write({ jsonrpc: '2.0', id: request, result }, sent);
}

/** `request`'s headers (its credentials and protocol version) on a POST of `message`. */
function postOf(request: Request, message: JSONRPCMessage): Request {
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json, text/event-stream');
  headers.delete('last-event-id');
  return new Request(request.url, {
    method: 'POST',
    headers,
    body: JSON.stringify(message),
    signal: request.signal,
  });
}
