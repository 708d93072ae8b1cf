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

/**
 * How long a resume waits for its ask's turn to begin (the ask may be starting it): past it, the
 * stream ends and the client comes back. Another tenant's turn never begins in this tenant's log.
 */
const BEGIN_WAIT_MS = 10_000;

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
  // Stops the follow when the client leaves, whether its request or the body's reading says so.
  const left = new AbortController();
  signal.addEventListener('abort', () => left.abort(), { once: true });
  const body = new ReadableStream<Uint8Array>({
    start: async (controller) => {
      const frame = (data: string, sent: number, before = '') =>
        controller.enqueue(
          encoder.encode(`${before}id: ${askEventId({ ...position, sent })}\ndata: ${data}\n\n`),
        );
      // Primed with where the client stands: a stream that ends with nothing new still leaves it an
      // id to come back with.
      frame('', position.sent, `retry: ${MCP_RETRY_MS}\n`);
      const write = (message: JSONRPCMessage, sent: number) => frame(JSON.stringify(message), sent);
      try {
        await followAsk(deps, storedSession(tenant, position.session), position, write, left.signal);
      } catch (error) {
        // A client that left reads nothing more; any other failure ends the stream, and the client
        // comes back with its last id.
        if (!left.signal.aborted) console.error(error);
      } finally {
        if (!left.signal.aborted) controller.close();
      }
    },
    cancel: () => left.abort(),
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
  const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
  const begun = await turnBegun(deps, stored, turn, {
    signal,
    deadline: Math.min(deadline, Date.now() + BEGIN_WAIT_MS),
  });
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
  const end = await mcpTurnEnd(
    deps,
    { stored, turn, after: begun.firstSeq - 1 },
    { onEvent, signal, deadline },
  );
  if (end === undefined) return;
  const result = await mcpTurnResult(deps, stored, position);
  write({ jsonrpc: '2.0', id: request, result }, sent);
}

/**
 * Where the turn's `user` event was logged, once it is (the ask that starts it may not have yet):
 * each change of the session is read until then, or until `deadline`.
 */
async function turnBegun(
  deps: ApiDeps,
  stored: string,
  turn: string,
  watch: { signal: AbortSignal; deadline: number },
) {
  for (;;) {
    const begun = await deps.log.appended(stored, userMessageKey(turn));
    if (begun !== undefined || Date.now() >= watch.deadline) return begun;
    const after = (await deps.log.read(stored)).at(-1)?.seq ?? 0;
    // Any event of the session wakes the wait: the turn's own, or one before it.
    await mcpTurnEnd(deps, { stored, turn, after }, { ...watch, stopAt: () => true });
  }
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
