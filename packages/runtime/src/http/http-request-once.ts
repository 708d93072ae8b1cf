import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { HttpFetchOptions, ResolvedAddress } from './http-fetch-tool.js';

/** Methods that change nothing on the server (RFC 9110 §9.2.1): they carry no Idempotency-Key. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** One request as `http_fetch` sends it. */
export interface HttpRequest {
  method: string;
  body?: string;
  contentType?: string;
  /** Sent as `Idempotency-Key` (requests that are not safe): the call's, the same on every retry. */
  idempotencyKey?: string;
}

/** What `http_fetch` answers: the response's status, content type and text (cut at the cap). */
export interface FetchResult {
  status: number;
  content_type: string | null;
  body: string;
  truncated?: true;
  /** A redirect's target, when the request was not followed there (it is not safe). */
  location?: string;
}

/**
 * Sends `request` to `target` once, connected to `address` (the one that was checked), within the
 * options' time and size caps; a redirect's `location` is given beside its result.
 */
export function requestOnce(
  target: URL,
  request: HttpRequest,
  address: ResolvedAddress,
  options: Pick<HttpFetchOptions, 'timeoutMs' | 'maxBytes'>,
  signal: AbortSignal,
): Promise<{ result: FetchResult; location?: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Connect to the address that was checked, whatever the name resolves to by now.
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((settle, fail) => {
    const outgoing = send(target, {
      method: request.method,
      lookup: pinned,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      headers: headersOf(request),
    });
    outgoing.on('error', (error) =>
      fail(
        error.name === 'AbortError'
          ? new Error(`${target.host} did not answer within ${timeoutMs} ms.`)
          : error,
      ),
    );
    outgoing.on('response', (response) => {
      const location =
        response.statusCode && response.statusCode >= 300 && response.statusCode < 400
          ? response.headers.location
          : undefined;
      if (location !== undefined) {
        response.resume();
        settle({
          result: { status: response.statusCode ?? 0, content_type: null, body: '', location },
          location,
        });
        return;
      }
      readCapped(response, options.maxBytes ?? 1024 * 1024).then(({ body, truncated }) => {
        const result: FetchResult = {
          status: response.statusCode ?? 0,
          content_type: response.headers['content-type'] ?? null,
          body,
        };
        settle({ result: truncated ? { ...result, truncated } : result });
      }, fail);
    });
    outgoing.end(request.body);
  });
}

function headersOf(request: HttpRequest): Record<string, string> {
  return {
    'user-agent': 'AgentStep http_fetch',
    accept: '*/*',
    ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
    ...(request.idempotencyKey === undefined ? {} : { 'idempotency-key': request.idempotencyKey }),
  };
}

async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size > maxBytes) {
      response.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
