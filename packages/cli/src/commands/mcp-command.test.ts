import { once } from 'node:events';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryProject } from '../testing/memory-project.js';

const numbers = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

const TOOLS = [
  { name: 'add', description: 'Adds two numbers.\nExactly.', inputSchema: numbers },
  { name: 'stats', inputSchema: numbers },
  { name: 'broken', description: 'Always fails.', inputSchema: { type: 'object' } },
];

/** What each tool answers: `add` text, `stats` structured content, `broken` an error result. */
function called(name: string, { a = 0, b = 0 }: { a?: number; b?: number }): object {
  if (name === 'add') return { content: [{ type: 'text', text: String(a + b) }] };
  if (name === 'stats')
    return { content: [{ type: 'text', text: 'see structured' }], structuredContent: { sum: a + b } };
  return { isError: true, content: [{ type: 'text', text: 'the abacus broke' }] };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

/** A streamable HTTP MCP server written by hand (this package has no MCP SDK): JSON answers, no session. */
function mathServer(): HttpServer {
  return createServer(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405).end();
    const { id, method, params } = JSON.parse(await bodyOf(request));
    if (id === undefined) return void response.writeHead(202).end();
    const result =
      method === 'initialize'
        ? {
            protocolVersion: params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'math', version: '1.0.0' },
          }
        : method === 'tools/list'
          ? { tools: TOOLS }
          : called(params.name, params.arguments ?? {});
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
}

describe('agentstep mcp', () => {
  let http: HttpServer;
  let mcp: string;

  beforeAll(async () => {
    http = mathServer().listen(0, '127.0.0.1');
    await once(http, 'listening');
    mcp = `math=http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(() => {
    http.close();
  });

  const run = (...args: string[]) => memoryProject().run(['mcp', ...args]);

  it('tools: prints each tool as the model sees it, one line each', async () => {
    expect(await run('tools', '--mcp', mcp)).toEqual({
      status: 0,
      stdout: [
        'math__add  Adds two numbers. Exactly. (tool add of the MCP server math)',
        'math__stats  The tool stats of the MCP server math.',
        'math__broken  Always fails. (tool broken of the MCP server math)',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('tools --json: the whole definitions, their input schemas as the model gets them', async () => {
    const { status, stdout } = await run('tools', '--json', '--mcp', mcp);
    expect(status).toBe(0);
    const [add] = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(add).toEqual({
      name: 'math__add',
      description: 'Adds two numbers.\nExactly. (tool add of the MCP server math)',
      parameters: expect.objectContaining({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      }),
      approval: false,
      timeoutMs: 60_000,
    });
  });

  it('tools: exits 1 naming the server that cannot be reached, and why, after the tools of the others', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const { status, stdout, stderr } = await run(
      'tools',
      '--mcp',
      mcp,
      '--mcp',
      `gone=http://127.0.0.1:${port}/mcp`,
    );
    expect(status).toBe(1);
    expect(stdout).toContain('math__add  ');
    expect(stderr).toBe(
      `agentstep mcp: MCP server gone (http://127.0.0.1:${port}) could not be reached: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})\n`,
    );
  });

  it('call: prints the result as the model reads it: its text, or its structured content', async () => {
    expect(await run('call', 'math__add', '--args', '{"a": 2, "b": 3}', '--mcp', mcp)).toEqual({
      status: 0,
      stdout: '5\n',
      stderr: '',
    });
    expect((await run('call', 'math__stats', '--args', '{"a": 2, "b": 3}', '--mcp', mcp)).stdout).toBe(
      '{"sum":5}\n',
    );
  });

  it('call --json: the whole MCP result', async () => {
    const { status, stdout } = await run(
      'call',
      'math__stats',
      '--args',
      '{"a": 1, "b": 1}',
      '--json',
      '--mcp',
      mcp,
    );
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      content: [{ type: 'text', text: 'see structured' }],
      structuredContent: { sum: 2 },
    });
  });

  it('call: exits 1 for an error result, for arguments the schema refuses, and for a tool not listed', async () => {
    expect(await run('call', 'math__broken', '--mcp', mcp)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'agentstep mcp: the abacus broke\n',
    });
    const broken = await run('call', 'math__broken', '--json', '--mcp', mcp);
    expect([broken.status, JSON.parse(broken.stdout).isError]).toEqual([1, true]);
    expect(await run('call', 'math__add', '--args', '{"a": 2}', '--mcp', mcp)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'agentstep mcp: Invalid arguments for math__add: b: required\n',
    });
    expect(await run('call', 'math__mul', '--mcp', mcp)).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'agentstep mcp: math__mul is not a tool the agent may call; its servers list math__add, math__stats, math__broken.\n',
    });
  });

  it('--help documents both actions', async () => {
    const { status, stdout } = await run('--help');
    expect(status).toBe(0);
    expect(stdout).toContain('agentstep mcp tools [--json] [agent options]\n');
    expect(stdout).toContain('agentstep mcp call SERVER__TOOL [--args JSON] [--json] [agent options]\n');
  });

  it.each([
    [
      ['nothing'],
      'mcp takes tools (list the agent\'s MCP tools) or call NAME__TOOL (call one), not "nothing".',
    ],
    [
      ['call', '--mcp', 'x=http://127.0.0.1:9/mcp'],
      'mcp call takes one tool as the model calls it, SERVER__TOOL (see agentstep mcp tools).',
    ],
    [
      ['call', 'math__add', '--args', '[1]', '--mcp', 'math=http://127.0.0.1:9/mcp'],
      `--args takes a JSON object of the tool's arguments, such as --args '{"a": 1}'; received [1].`,
    ],
    [
      ['call', 'other__add', '--mcp', 'math=http://127.0.0.1:9/mcp'],
      'other__add names no MCP server of the agent (its servers: math).',
    ],
    [
      ['tools'],
      'the agent has no MCP server: give --mcp NAME=URL, or an agent file (agent.ts here, or --agent FILE) with mcpServers.',
    ],
  ])('exits 2 when called wrong: mcp %j', async (args, message) => {
    expect(await run(...args)).toEqual({
      status: 2,
      stdout: '',
      stderr: `agentstep mcp: ${message}\nRun "agentstep --help" for usage.\n`,
    });
  });
});
