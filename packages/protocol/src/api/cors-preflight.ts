/**
 * The request headers the API's routes read, and those the MCP SDK's streamable HTTP client sends
 * to `/mcp`: `Mcp-Protocol-Version` after it initialized, `Mcp-Session-Id` only once a server gave
 * one (the stateless route never does, so no response exposes it); and the A2A SDK's client's
 * `A2A-Version` and `A2A-Extensions`. A CORS preflight allows these,
 * on `agentstep serve` and on the deployed API alike.
 */
export const CORS_ALLOW_HEADERS: readonly string[] = [
  'Authorization',
  'Content-Type',
  'Last-Event-ID',
  'Idempotency-Key',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'A2A-Version',
  'A2A-Extensions',
];

/** The methods the API's routes answer, as a CORS preflight allows them. */
export const CORS_ALLOW_METHODS: readonly string[] = ['GET', 'POST', 'DELETE'];
