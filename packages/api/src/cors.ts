import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS } from '@agentstep/protocol';
import type { MiddlewareHandler } from 'hono';
import { cors as honoCors } from 'hono/cors';

/** The response headers a page may read: when to ask again, and the AI SDK stream's version. */
const EXPOSE_HEADERS = ['Retry-After', 'x-vercel-ai-ui-message-stream'];

/** How long a browser may reuse a preflight's answer, in seconds. */
const MAX_AGE_SECONDS = 600;

/**
 * CORS for exactly `origins`: a request from one of them gets `Access-Control-Allow-Origin` with
 * its origin (and a preflight `OPTIONS` a 204 with the methods and headers the routes use, before
 * any credentials are checked); a request from any other origin, or with none, gets no CORS header
 * and goes on to the routes as usual. Every response says it varies by `Origin`.
 */
export function cors(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  const forAllowed = honoCors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowHeaders: [...CORS_ALLOW_HEADERS],
    allowMethods: [...CORS_ALLOW_METHODS],
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: MAX_AGE_SECONDS,
  });
  return async (c, next) => {
    if (allowed.has(c.req.header('origin') ?? '')) return forAllowed(c, next);
    await next();
    c.header('Vary', 'Origin', { append: true });
  };
}
