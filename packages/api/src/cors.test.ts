import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { bearerNameTenant } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

const APP_ORIGIN = 'https://app.example.com';
const withCors = createApi({
  ...inMemoryApiDeps(bearerNameTenant),
  corsOrigins: [APP_ORIGIN, 'http://localhost:5173'],
});
const withoutCors = createApi(inMemoryApiDeps(bearerNameTenant));

/** The response's CORS headers, by lower-case name. */
function corsHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

/** A browser's preflight of `POST /sessions` from `origin`: no credentials, as browsers send it. */
function preflight(app: typeof withCors, origin: string) {
  return app.request('/sessions', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  });
}

describe('cors', () => {
  it('answers a preflight from a listed origin with 204 and the methods and headers the routes use, without credentials', async () => {
    const response = await preflight(withCors, APP_ORIGIN);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({
      'access-control-allow-origin': APP_ORIGIN,
      'access-control-allow-methods': 'GET,POST,DELETE',
      'access-control-allow-headers':
        'Authorization,Content-Type,Last-Event-ID,Idempotency-Key,Mcp-Protocol-Version,Mcp-Session-Id,A2A-Version,A2A-Extensions',
      'access-control-expose-headers': 'Retry-After,x-vercel-ai-ui-message-stream',
      'access-control-max-age': '600',
    });
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('lets a listed origin read answers and refusals, each naming that origin', async () => {
    const other = 'http://localhost:5173';
    const started = await withCors.request('/sessions', {
      method: 'POST',
      headers: { origin: other, authorization: 'Bearer alice', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi' }),
    });
    expect(started.status).toBe(202);
    expect(started.headers.get('access-control-allow-origin')).toBe(other);
    const refused = await withCors.request('/sessions', { headers: { origin: APP_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const missing = await withCors.request('/nowhere', {
      headers: { origin: APP_ORIGIN, authorization: 'Bearer alice' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('gives an origin not listed no CORS header: its preflight goes on to the routes, which answer no OPTIONS', async () => {
    const response = await preflight(withCors, 'https://evil.example.com');
    expect(response.status).toBe(404);
    expect(corsHeadersOf(response)).toEqual({});
    expect(response.headers.get('vary')).toBe('Origin');
    const read = await withCors.request('/sessions', {
      headers: { origin: 'https://evil.example.com', authorization: 'Bearer alice' },
    });
    expect(read.status).toBe(200);
    expect(corsHeadersOf(read)).toEqual({});
  });

  it('adds no CORS header at all without corsOrigins', async () => {
    const response = await preflight(withoutCors, APP_ORIGIN);
    expect(response.status).toBe(404);
    expect(corsHeadersOf(response)).toEqual({});
    expect(response.headers.get('vary')).toBeNull();
  });
});
