import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Hono } from 'hono';

/**
 * The official MCP SDK's client of `app`'s `POST /mcp`, connected, acting for `tenant` (a bearer
 * naming it, as `bearerNameTenant` reads it), with no socket: requests go to `app.request`, through
 * `around` when given (to watch or cut them).
 */
export async function mcpClientOf(
  app: Hono,
  tenant: string,
  around: (fetch: FetchLike) => FetchLike = (fetch) => fetch,
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://api.test/mcp'), {
    fetch: around(async (url, init) => app.request(String(url), init)),
    requestInit: { headers: { authorization: `Bearer ${tenant}` } },
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}
