import { once } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { runTool } from '../tools/run-tool.js';
import { listMcpTools } from './list-mcp-tools.js';
import { McpConnections } from './mcp-connections.js';
import { mcpTool } from './mcp-tool.js';
import { turnMcpTools } from './turn-mcp-tools.js';
import { withTurnMcpTools } from './with-turn-mcp-tools.js';

const context = { session: 's', turn: 't', batch: 'b', position: 0 };
const input = (properties: Record<string, object> = {}) => ({ type: 'object' as const, properties });

/** Two pages of tools: some the runtime can use, some it must skip. */
const pages: McpTool[][] = [
  [
    { name: 'lookup', description: 'Looks a word up.', inputSchema: input({ word: { type: 'string' } }) },
    { name: 'has space', inputSchema: input() },
  ],
  [
    { name: 'fail', title: 'Always fails', inputSchema: input() },
    { name: 'whoami', description: 'Says who asks.', inputSchema: input({ user_id: { type: 'string' } }) },
    { name: 'x'.repeat(60), description: 'Too long to map.', inputSchema: input() },
  ],
];

/** A stateless MCP server made with the official SDK, answering JSON (no SSE). */
function paginatedServer(): Server {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const page = Number(request.params?.cursor ?? 0);
    return { tools: pages[page] ?? [], ...(page + 1 < pages.length ? { nextCursor: String(page + 1) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === 'fail')
      return { isError: true, content: [{ type: 'text', text: 'the index is rebuilding' }] };
    // The call's idempotency key, as the request's _meta carries it (decision 0031).
    if (request.params.arguments?.word === 'key')
      return { content: [{ type: 'text', text: String(request.params._meta?.idempotencyKey) }] };
    throw new Error(`unknown word ${JSON.stringify(request.params.arguments?.word)}`);
  });
  return server;
}

describe('listMcpTools', () => {
  let http: HttpServer;
  let url: string;
  let connections: McpConnections | undefined;

  beforeAll(async () => {
    http = createServer(async (request, response) => {
      const server = paginatedServer();
      // No session id generator: stateless, a new server for each request.
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      response.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(request, response);
    }).listen(0, '127.0.0.1');
    await once(http, 'listening');
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await connections?.close();
    http.close();
  });

  it("follows the pages, skips what cannot be mapped and fails as the server's results say", async () => {
    const servers = { paged: { url, approval: true, timeoutMs: 5_000 } };
    connections = new McpConnections(servers, { secretOf: async () => undefined });
    const { tools, problems, unlisted } = await listMcpTools(servers, connections);
    expect(unlisted).toEqual([]);
    expect(tools.map(({ name, description, approval }) => ({ name, description, approval }))).toEqual([
      { name: 'paged__lookup', description: 'Looks a word up.', approval: true },
      { name: 'paged__fail', description: 'Always fails', approval: true },
    ]);
    expect(problems).toEqual([
      `MCP server paged's tool "has space" is skipped: "paged__has space" is not a usable tool name (1–64 letters, digits, "_", "." or "-", starting with a letter or "_").`,
      `MCP server paged's tool "whoami" is skipped: it takes user_id, and identity comes from the call context, not from model arguments.`,
      `MCP server paged's tool "${'x'.repeat(60)}" is skipped: "paged__${'x'.repeat(60)}" is not a usable tool name (1–64 letters, digits, "_", "." or "-", starting with a letter or "_").`,
    ]);

    const [lookup, fail] = tools.map((entry) => mcpTool(entry, connections as McpConnections));
    if (!lookup || !fail) return expect.unreachable();
    expect(await runTool(fail, {}, context)).toEqual({
      tool: 'paged__fail',
      status: 'failure',
      content: 'the index is rebuilding',
    });
    expect(await runTool(lookup, { word: 'zyx' }, context)).toEqual({
      tool: 'paged__lookup',
      status: 'failure',
      content: 'MCP server paged refused the call: MCP error -32603: unknown word "zyx"',
    });
    expect(await runTool(lookup, { word: 'key' }, { ...context, position: 4 })).toEqual({
      tool: 'paged__lookup',
      status: 'success',
      content: 's:b:4',
    });
  });

  it('names the servers that gave no list beside the tools of those that did', async () => {
    const gone = createServer().listen(0, '127.0.0.1');
    await once(gone, 'listening');
    const goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/mcp`;
    await new Promise((closed) => gone.close(closed));
    const servers = { paged: { url, tools: ['lookup'] }, gone: { url: goneUrl } };
    const both = new McpConnections(servers, { secretOf: async () => undefined });
    try {
      const { tools, problems, unlisted } = await listMcpTools(servers, both);
      expect(tools.map(({ name }) => name)).toEqual(['paged__lookup']);
      expect(unlisted).toEqual(['gone']);
      expect(problems).toEqual([
        expect.stringMatching(/^MCP server gone \(http:\/\/127\.0\.0\.1:\d+\) could not be reached: /),
      ]);
    } finally {
      await both.close();
    }
  });

  it("lists a turn's tools once and logs them: its later steps see that list, the next turn the server's new one", async () => {
    const servers = { paged: { url, tools: ['lookup'], approval: ['lookup'] } };
    const mcp = { servers, connections: new McpConnections(servers, { secretOf: async () => undefined }) };
    const log = new InMemoryEventLog();
    try {
      await log.acquireTurn('s', 't-1');
      const first = await turnMcpTools('s', 't-1', { log, mcp });
      expect(first.tools.map(({ name }) => name)).toEqual(['paged__lookup']);
      // The server's list changes: the turn keeps the list it logged.
      servers.paged.tools = ['fail'];
      expect(await turnMcpTools('s', 't-1', { log, mcp })).toEqual(first);
      const stepDeps = await withTurnMcpTools({ session: 's', turn: 't-1' }, {
        log,
        mcp,
        tools: [],
        targetOf: () => 'tools',
      } as unknown as Parameters<typeof withTurnMcpTools>[1]);
      expect(stepDeps.tools.map(({ name }) => name)).toEqual(['paged__lookup']);
      const found = stepDeps.approvals?.toolset.find('paged__lookup');
      expect(found?.ok && found.tool.approval).toBe(true);
      await log.append({ session: 's', turn: 't-1', key: 'end', events: [], release: true });
      await log.acquireTurn('s', 't-2');
      const next = await turnMcpTools('s', 't-2', {
        log,
        mcp: { ...mcp, servers: { paged: { url, tools: ['fail'] } } },
      });
      expect(next.tools.map(({ name }) => name)).toEqual(['paged__fail']);
    } finally {
      await mcp.connections.close();
    }
  });
});
