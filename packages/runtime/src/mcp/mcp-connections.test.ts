import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool } from '../tools/run-tool.js';
import { McpConnections } from './mcp-connections.js';
import { mcpTool } from './mcp-tool.js';

/** How the hand-written server answers one call of a tool: its JSON-RPC id, the HTTP response to write. */
type Answer = (id: number | string, response: ServerResponse) => void | Promise<void>;

/**
 * A streamable HTTP MCP server written by hand, to answer in ways no SDK server would: each tool
 * answers as `tools` says. `received` names each call that reached it, in order; `initialized`
 * counts the sessions opened.
 */
async function rawMcpServer(tools: Record<string, Answer>) {
  const received: string[] = [];
  let initialized = 0;
  const server = createServer(async (request, response) => {
    // A connection per request: a stopped server refuses the next one, never a kept-alive socket it closed.
    response.shouldKeepAlive = false;
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const message = JSON.parse(await bodyOf(request));
    if (message.id === undefined) return void response.writeHead(202).end();
    if (message.method === 'initialize') {
      initialized += 1;
      const result = {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'raw', version: '1.0.0' },
      };
      return json(response, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': 'raw-session' });
    }
    received.push(message.params.name);
    const answer = tools[message.params.name] ?? expect.unreachable(`no tool ${message.params.name}`);
    await answer(message.id, response);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, received, initialized: () => initialized, close };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

function json(response: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** Answers with one server-sent event whose data is `data`, as it is. */
function sse(response: ServerResponse, data: string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`event: message\ndata: ${data}\n\n`);
}

function textResult(id: number | string, text: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
}

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const context = { session: 's', turn: 't', batch: 'b', position: 0 };
const noSecrets = async () => undefined;
const opened: Array<{ close(): unknown }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
});

/**
 * A stdio MCP server written by hand: `slow` answers once `release` is called; `stray` writes a line
 * that is not JSON and an answer that is not JSON-RPC, neither of which the SDK pins on a call.
 */
const STDIO_SERVER = `
const lines = require('node:readline').createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const text = (id, text) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
let slow;
lines.on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === 'initialize')
    send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } } });
  else if (method !== 'tools/call') return;
  else if (params.name === 'slow') slow = id;
  else if (params.name === 'stray') process.stdout.write('not json\\n' + JSON.stringify({ jsonrpc: '2.0', id, result: 'done' }) + '\\n');
  else if (params.name === 'release') send(text(slow, 'slow done')), send(text(id, 'released'));
});
`;

/**
 * The tools of the server `raw` at `url`, each as the runtime runs it, sharing one set of
 * connections; a call's time limit is the server's unless given.
 */
function rawTools(url: string, serverTimeoutMs = 10_000) {
  const connections = new McpConnections(
    { raw: { url, timeoutMs: serverTimeoutMs } },
    { secretOf: noSecrets },
  );
  opened.push(connections);
  const tool = (name: string, timeoutMs = serverTimeoutMs) =>
    mcpTool(
      {
        name: `raw__${name}`,
        server: 'raw',
        tool: name,
        description: '',
        inputSchema: {},
        approval: false,
        timeoutMs,
      },
      connections,
    );
  return { connections, tool };
}

/** Resolves once `holds` does, checking every few milliseconds. */
async function until(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** What a model reads of a call whose answer came malformed. */
const MALFORMED =
  'outcome unknown: MCP server raw answered the call with something that is not an MCP tool result; it may have run the tool.';

describe('McpConnections', () => {
  it('fails only the call whose answer is malformed, in one sentence; the calls in flight beside it keep their answers', async () => {
    const slow = gate();
    const server = await rawMcpServer({
      slow: async (id, response) => {
        await slow.opened;
        sse(response, textResult(id, 'slow done'));
      },
      // JSON-RPC but no tool result; a frame that is not JSON; results that are not JSON-RPC.
      notAToolResult: (id, response) =>
        json(response, { jsonrpc: '2.0', id, result: { content: 'not a list of parts' } }),
      notJson: (_, response) => sse(response, '{"jsonrpc": "2.0", "id": '),
      notJsonRpc: (id, response) => json(response, { jsonrpc: '2.0', id, result: 'done' }),
      notJsonRpcEvent: (id, response) => sse(response, JSON.stringify({ jsonrpc: '2.0', id, result: 7 })),
    });
    opened.push(server);
    const { tool } = rawTools(server.url, 3_000);
    const slowCall = runTool(tool('slow'), {}, context);
    await until(() => server.received.includes('slow'));
    const malformed = ['notAToolResult', 'notJson', 'notJsonRpc', 'notJsonRpcEvent'];
    const failures = await Promise.all(
      malformed.map((name, index) => runTool(tool(name), {}, { ...context, position: index + 1 })),
    );
    slow.open();
    expect(await slowCall).toEqual({ tool: 'raw__slow', status: 'success', content: 'slow done' });
    expect(failures).toEqual(
      malformed.map((name) => ({ tool: `raw__${name}`, status: 'failure', content: MALFORMED })),
    );
    // Every call went out once, on the one session.
    expect(server.received.toSorted()).toEqual([...malformed, 'slow'].toSorted());
    expect(server.initialized()).toBe(1);
  });

  it('says the outcome of a call whose answer was cut off is unknown; the call beside it keeps its answer', async () => {
    const slow = gate();
    const server = await rawMcpServer({
      slow: async (id, response) => {
        await slow.opened;
        sse(response, textResult(id, 'slow done'));
      },
      cut: (_, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': working on it\n\n', () => response.socket?.destroy());
      },
    });
    opened.push(server);
    const { tool } = rawTools(server.url, 3_000);
    const slowCall = runTool(tool('slow'), {}, context);
    await until(() => server.received.includes('slow'));
    expect(await runTool(tool('cut'), {}, { ...context, position: 1 })).toEqual({
      tool: 'raw__cut',
      status: 'failure',
      content:
        'outcome unknown: MCP server raw stopped answering after the call was sent: its answer was cut off; it may have run the tool.',
    });
    slow.open();
    expect(await slowCall).toEqual({ tool: 'raw__slow', status: 'success', content: 'slow done' });
  });

  it('over stdio, a stray line fails no other call: its own waits out its time and its outcome is unknown', async () => {
    const script = join(await mkdtemp(join(tmpdir(), 'raw-mcp-')), 'server.cjs');
    await writeFile(script, STDIO_SERVER);
    const { tool } = rawTools(`stdio:${process.execPath} ${script}`);
    const slowCall = runTool(tool('slow'), {}, context);
    const stray = await runTool(tool('stray', 1_000), {}, { ...context, position: 1 });
    const release = await runTool(tool('release'), {}, { ...context, position: 2 });
    expect(await slowCall).toEqual({ tool: 'raw__slow', status: 'success', content: 'slow done' });
    expect(release).toMatchObject({ status: 'success', content: 'released' });
    expect(stray).toEqual({
      tool: 'raw__stray',
      status: 'failure',
      content:
        'outcome unknown: MCP server raw stopped answering after the call was sent: MCP error -32001: Request timed out; it may have run the tool.',
    });
  });

  it('tries a call that never reached the server on a new connection, and does not call its outcome unknown', async () => {
    const server = await rawMcpServer({ echo: (id, response) => sse(response, textResult(id, 'echoed')) });
    const { tool } = rawTools(server.url);
    expect(await runTool(tool('echo'), {}, context)).toMatchObject({ status: 'success', content: 'echoed' });
    server.close();
    // The server is gone: the request is refused at once, and so is a new connection.
    expect(await runTool(tool('echo'), {}, context)).toEqual({
      tool: 'raw__echo',
      status: 'failure',
      content: `MCP server raw (${new URL(server.url).origin}) could not be reached: fetch failed (connect ECONNREFUSED ${new URL(server.url).host})`,
    });
  });
});
