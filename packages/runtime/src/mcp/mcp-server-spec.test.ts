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
