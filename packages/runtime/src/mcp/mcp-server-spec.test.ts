import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { listMcpTools } from './list-mcp-tools.js';
import { McpConnections } from './mcp-connections.js';
import { DEFAULT_MCP_TIMEOUT_MS, mcpServerNameSchema, mcpServerSpecSchema } from './mcp-server-spec.js';

const problems = (value: unknown) =>
  mcpServerSpecSchema
    .safeParse(value)
    .error?.issues.map(({ path, message }) => `${path.join('.')}: ${message}`);

describe('mcpServerSpecSchema', () => {
  it('takes an HTTP server with secret headers, an allowlist, approvals and a time limit', () => {
    const spec = {
      url: 'https://api.example.com/mcp',
      headers: { Authorization: { secret: 'GITHUB_TOKEN', prefix: 'Bearer ' }, 'X-Team': 'core' },
      tools: ['search'],
      approval: ['delete'],
      timeoutMs: 5_000,
    };
    expect(mcpServerSpecSchema.parse(spec)).toEqual(spec);
    expect(mcpServerSpecSchema.parse({ url: "stdio:npx -y '@scope/server'", approval: true })).toBeTruthy();
  });

  it('refuses other urls, stdio servers with headers, open quotes and unknown fields', () => {
    expect(problems({ url: 'ftp://example.com' })).toEqual([
      'url: an MCP server url is http(s)://… (streamable HTTP) or stdio:COMMAND ARGS… (local only)',
    ]);
    expect(problems({ url: 'stdio:server', headers: { A: 'b' } })).toEqual([
      'headers: headers apply to HTTP servers only: a stdio: server takes none',
    ]);
    expect(problems({ url: "stdio:server 'x" })).toEqual([
      `url: "stdio:server 'x" leaves a ' quote open: close it.`,
    ]);
    expect(problems({ url: 'https://example.com/mcp', allow: ['x'] })).toEqual([
      ': Unrecognized key: "allow"',
    ]);
  });
});

describe('mcpServerSpecSchema oauth', () => {
  const url = 'https://api.example.com/mcp';
  const issuer = 'https://login.example.com';

  it('takes client credentials by a client secret or by a private key, each named as a secret', () => {
    const basic = { issuer, clientId: 'agent', clientSecret: { secret: 'MCP_SECRET' }, scope: 'read write' };
    const jwt = { issuer, clientId: 'agent', privateKey: { secret: 'mcp/key' }, algorithm: 'ES256' };
    expect(mcpServerSpecSchema.parse({ url, oauth: basic })).toEqual({ url, oauth: basic });
    expect(mcpServerSpecSchema.parse({ url, oauth: jwt, headers: { 'X-Team': 'core' } })).toBeTruthy();
  });

  it.each([
    [
      'a written secret',
      { issuer, clientId: 'agent', clientSecret: 'hunter2' },
      ['oauth.clientSecret: a credential is named, never written here: { secret: NAME }'],
    ],
    [
      'no credential',
      { issuer, clientId: 'agent' },
      [
        'oauth: oauth takes one credential: clientSecret ({ secret: NAME }, sent as HTTP Basic) or privateKey ({ secret: NAME }, a PEM key that signs a JWT)',
      ],
    ],
    [
      'two credentials',
      { issuer, clientId: 'agent', clientSecret: { secret: 'A' }, privateKey: { secret: 'B' } },
      [
        'oauth: oauth takes one credential: clientSecret ({ secret: NAME }, sent as HTTP Basic) or privateKey ({ secret: NAME }, a PEM key that signs a JWT)',
      ],
    ],
    [
      'an algorithm without a key',
      { issuer, clientId: 'agent', clientSecret: { secret: 'A' }, algorithm: 'RS256' },
      ['oauth.algorithm: oauth.algorithm is what privateKey signs with: it needs a privateKey'],
    ],
    [
      'an issuer that is no http(s) url',
      { issuer: 'login.example.com', clientId: 'agent', clientSecret: { secret: 'A' } },
      ["oauth.issuer: oauth.issuer is the authorization server's issuer URL, http(s)://…"],
    ],
  ])('refuses %s', (_, oauth, expected) => {
    expect(problems({ url, oauth })).toEqual(expected);
  });

  it('refuses oauth on a stdio server, and beside an Authorization header', () => {
    const oauth = { issuer, clientId: 'agent', clientSecret: { secret: 'A' } };
    expect(problems({ url: 'stdio:server', oauth })).toEqual([
      'oauth: oauth applies to HTTP servers only: a stdio: server takes none',
    ]);
    expect(problems({ url, oauth, headers: { authorization: 'Bearer x' } })).toEqual([
      'headers: oauth sends the Authorization header: leave it out of headers',
    ]);
  });
});

describe('DEFAULT_MCP_TIMEOUT_MS', () => {
  it("is the time limit of a server's tools when its entry sets no timeoutMs: 60 s", async () => {
    // A stateless server made with the official SDK, listing one tool.
    const http = createServer(async (request, response) => {
      const server = new Server({ name: 'one', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'ping', inputSchema: { type: 'object' } }],
      }));
      response.on('close', () => void server.close());
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      await server.connect(transport);
      await transport.handleRequest(request, response);
    }).listen(0, '127.0.0.1');
    await once(http, 'listening');
    const servers = { one: { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` } };
    const connections = new McpConnections(servers, { secretOf: async () => undefined });
    try {
      const { tools } = await listMcpTools(servers, connections);
      expect(tools.map(({ name, timeoutMs }) => ({ name, timeoutMs }))).toEqual([
        { name: 'one__ping', timeoutMs: 60_000 },
      ]);
      expect(DEFAULT_MCP_TIMEOUT_MS).toBe(60_000);
    } finally {
      await connections.close();
      http.close();
    }
  });
});

describe('mcpServerNameSchema', () => {
  it('takes 1–32 letters, digits, "_" or "-", starting as a tool name may', () => {
    expect(mcpServerNameSchema.safeParse('git-hub_2').success).toBe(true);
    expect(mcpServerNameSchema.safeParse('_local').success).toBe(true);
    expect(mcpServerNameSchema.safeParse('2fa').success).toBe(false);
    expect(mcpServerNameSchema.safeParse('-x').success).toBe(false);
    expect(mcpServerNameSchema.safeParse('a'.repeat(33)).success).toBe(false);
    expect(mcpServerNameSchema.safeParse('git.hub').success).toBe(false);
  });
});
