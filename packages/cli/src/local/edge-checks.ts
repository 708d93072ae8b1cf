import { ApiError } from '@agentstep/api';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { acceptsHost, type HostRule } from './accepts-host.js';

/** An HTTP handler as @hono/node-server calls it: the request, and the Node connection it came on. */
export type NodeFetchHandler = (
  request: Request,
  env: HttpBindings | Http2Bindings,
) => Response | Promise<Response>;

/**
 * `fetch` behind the checks of `agentstep serve` that every request passes, API and console files
 * alike: a `Host` it does not answer to ({@link acceptsHost}: a DNS rebinding page's) gets `421
 * MisdirectedRequest` in the API's shape; an answer that leaves the request's body unread (a 413,
 * a refusal before the body) closes the connection, so the rest of an upload is never read.
 */
export function withEdgeChecks(fetch: NodeFetchHandler, rule: HostRule): NodeFetchHandler {
  return async (request, env) => {
    const { socket } = env.incoming;
    const arrival = { address: socket.localAddress ?? '', port: socket.localPort ?? 0 };
    const host = request.headers.get('host');
    const response = acceptsHost(host, rule, arrival) ? await fetch(request, env) : misdirected(host);
    return env.incoming.complete ? response : closing(response);
  };
}

function misdirected(host: string | null): Response {
  const refusal = new ApiError(
    421,
    'MisdirectedRequest',
    `This server does not answer requests for Host ${JSON.stringify(host ?? '')}: call it at the address it listens on (or localhost when that is loopback), or name the host with agentstep serve --allowed-hosts NAME.`,
  );
  return new Response(JSON.stringify(refusal.body()), {
    status: refusal.status,
    headers: { 'content-type': 'application/json' },
  });
}

/** `response` with `Connection: close`: Node ends the connection once it is sent. */
function closing(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('connection', 'close');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
