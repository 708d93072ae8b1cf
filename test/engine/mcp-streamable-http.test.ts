import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeTool } from '@agentstep/protocol';
import { runTool, validateArgs } from '@agentstep/runtime';
import {
  listMcpTools,
  MCP_TIMEOUT_GRACE_MS,
  McpConnections,
  type McpToolEntry,
  mcpTool,
  mcpToolEntrySchema,
} from '@agentstep/runtime/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Everything,
  startEverything,
  stopEverything,
  untilOutput,
} from '../support/server-everything.js';

const context = { session: 's', turn: 't', batch: 'b', position: 0 };
const noSecrets = async () => undefined;

describe('MCP tools over streamable HTTP (server-everything)', () => {
  let everything: Everything | undefined;
  let connections: McpConnections;
  let tools: McpToolEntry[];
  let problems: string[];
  const tool = (name: string) => {
    const entry = tools.find((candidate) => candidate.name === name) ?? expect.unreachable(`no ${name}`);
    return mcpTool(entry, connections);
  };

  beforeAll(async () => {
    everything = await startEverything();
    const servers = {
      everything: {
        url: everything.url,
        tools: ['echo', 'get-sum', 'get-structured-content', 'get-tiny-image', 'no-such-tool'],
        approval: ['get-sum'],
        timeoutMs: 10_000,
      },
      away: { url: 'http://127.0.0.1:1/mcp' },
    };
    connections = new McpConnections(servers, { secretOf: noSecrets });
    ({ tools, problems } = await listMcpTools(servers, connections));
  });

  afterAll(async () => {
    await connections?.close();
    await stopEverything(everything);
  });

  it('lists the allowlisted tools as NAME__TOOL, in plain JSON', () => {
    expect(tools.map(({ name, approval, timeoutMs }) => ({ name, approval, timeoutMs }))).toEqual([
      { name: 'everything__echo', approval: false, timeoutMs: 10_000 },
      { name: 'everything__get-structured-content', approval: false, timeoutMs: 10_000 },
      { name: 'everything__get-sum', approval: true, timeoutMs: 10_000 },
      { name: 'everything__get-tiny-image', approval: false, timeoutMs: 10_000 },
    ]);
    expect(JSON.parse(JSON.stringify(tools))).toEqual(tools);
    for (const entry of tools) expect(mcpToolEntrySchema.parse(entry)).toEqual(entry);
  });

  it('says which allowlisted tool is missing and which server could not be reached', () => {
    expect(problems).toEqual([
      expect.stringMatching(
        /^MCP server everything has no tool "no-such-tool" \(named in its tools\); its tools: echo, /,
      ),
      expect.stringMatching(/^MCP server away \(http:\/\/127\.0\.0\.1:1\) could not be reached: /),
    ]);
  });

  it("describes each tool with the server's JSON Schema", () => {
    const sum = describeTool(tool('everything__get-sum'));
    expect(sum.description).toBe(
      'Returns the sum of two numbers (tool get-sum of the MCP server everything)',
    );
    expect(sum.parameters).toMatchObject({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'First number' },
        b: { type: 'number', description: 'Second number' },
      },
      required: ['a', 'b'],
    });
  });

  it('runs two calls at once, each with its own result', async () => {
    const [sum, echo] = await Promise.all([
      runTool(tool('everything__get-sum'), { a: 2, b: 3 }, context),
      runTool(tool('everything__echo'), { message: 'hello' }, { ...context, position: 1 }),
    ]);
    expect(sum).toEqual({
      tool: 'everything__get-sum',
      status: 'success',
      content: 'The sum of 2 and 3 is 5.',
    });
    expect(echo).toEqual({ tool: 'everything__echo', status: 'success', content: 'Echo: hello' });
  });

  it('refuses bad arguments before calling, naming the field', () => {
    const check = validateArgs(tool('everything__get-sum'), { a: 1, b: 'two', c: 3 });
    expect(check).toMatchObject({
      ok: false,
      problems: [
        { path: 'b', message: 'expected number, received string' },
        { path: 'args', message: 'unknown argument c (arguments: a, b)' },
      ],
    });
  });

  it('returns structured content as the object, and summarizes images', async () => {
    const weather = await runTool(
      tool('everything__get-structured-content'),
      { location: 'Chicago' },
      context,
    );
    expect(weather.content).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    const image = await runTool(tool('everything__get-tiny-image'), {}, context);
    expect(image.content).toMatch(
      /^Here's the image you requested:\n\[image image\/png, \d+ bytes\]\nThe image above is the MCP logo\.$/,
    );
  });
});

describe('MCP tools when the server stops mid-call', () => {
  let dying: Everything | undefined;
  let connections: McpConnections | undefined;

  afterAll(async () => {
    await connections?.close();
    await stopEverything(dying);
  });

  it('says the outcome of a call whose server stops is unknown, reconnects once it is back, and says so of a call unanswered in time', async () => {
    dying = await startEverything();
    const servers = {
      dying: { url: dying.url, tools: ['trigger-long-running-operation', 'echo'], timeoutMs: 1_500 },
    };
    connections = new McpConnections(servers, { secretOf: noSecrets });
    const { tools } = await listMcpTools(servers, connections);
    const [echo, long] = tools.map((entry) => mcpTool(entry, connections as McpConnections));
    if (!long || !echo) return expect.unreachable();
    expect([echo.name, long.name]).toEqual(['dying__echo', 'dying__trigger-long-running-operation']);

    // Killed once it has received the call (every POST so far was awaited).
    const posts = dying.stdout().split('Received MCP POST').length;
    const started = Date.now();
    const call = runTool(long, { duration: 60, steps: 60 }, context);
    const killed = dying;
    await untilOutput(killed, (stdout) => stdout.split('Received MCP POST').length > posts);
    killed.child.kill('SIGKILL');
    expect(await call).toMatchObject({
      status: 'failure',
      content: expect.stringMatching(
        /^outcome unknown: MCP server dying stopped answering after the call was sent: .*; it may have run the tool\.$/,
      ),
    });
    expect(Date.now() - started).toBeLessThan(1_500 + MCP_TIMEOUT_GRACE_MS);

    dying = await startEverything(Number(new URL(killed.url).port));
    expect(await runTool(echo, { message: 'back' }, context)).toMatchObject({
      status: 'success',
      content: 'Echo: back',
    });

    // Restarted between calls: the new server does not know the session, and a new one is opened.
    const restarted = dying;
    await stopEverything(restarted);
    dying = await startEverything(Number(new URL(restarted.url).port));
    expect((await listMcpTools(servers, connections)).tools.map(({ name }) => name)).toEqual([
      'dying__echo',
      'dying__trigger-long-running-operation',
    ]);
    expect(await runTool(echo, { message: 'again' }, context)).toMatchObject({
      status: 'success',
      content: 'Echo: again',
    });
    expect(await runTool(long, { duration: 60, steps: 60 }, context)).toEqual({
      tool: 'dying__trigger-long-running-operation',
      status: 'failure',
      content:
        'outcome unknown: MCP server dying stopped answering after the call was sent: MCP error -32001: Request timed out; it may have run the tool.',
    });
  });
});

describe('MCP headers', () => {
  it('sends a header read from a secret, and says why a server could not be reached', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(String(request.headers.authorization));
      response.writeHead(503).end('down for maintenance');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const servers = {
      guarded: { url, headers: { Authorization: { secret: 'MCP_TOKEN', prefix: 'Bearer ' } } },
    };
    const connections = new McpConnections(servers, {
      secretOf: async (name) => (name === 'MCP_TOKEN' ? 'abc123' : undefined),
    });
    try {
      const failure = await connections
        .withClient('guarded', async () => null)
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        message: expect.stringMatching(
          new RegExp(
            `^MCP server guarded \\(${new URL(url).origin}\\) could not be reached: .*down for maintenance`,
          ),
        ),
        cause: expect.any(Error),
      });
      expect(seen[0]).toBe('Bearer abc123');
    } finally {
      await connections.close();
      server.close();
    }
  });
});
