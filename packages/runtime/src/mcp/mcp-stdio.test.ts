import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTool } from '../tools/run-tool.js';
import { listMcpTools } from './list-mcp-tools.js';
import { McpConnections } from './mcp-connections.js';
import { mcpTool } from './mcp-tool.js';

const MEMORY = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const context = { session: 's', turn: 't', batch: 'b', position: 0 };
const noSecrets = async () => undefined;

describe('MCP tools over stdio (server-memory)', () => {
  const opened: McpConnections[] = [];
  const connect = (servers: ConstructorParameters<typeof McpConnections>[0]) => {
    const connections = new McpConnections(servers, { secretOf: noSecrets });
    opened.push(connections);
    return connections;
  };

  afterAll(async () => {
    await Promise.all(opened.map((connections) => connections.close()));
  });

  it('creates entities, then reads them back from the graph', async () => {
    // `env` sets the server's memory file without a shell; the quotes keep a path with a space whole.
    const file = join(await mkdtemp(join(tmpdir(), 'mcp memory ')), 'memory.jsonl');
    const servers = {
      memory: {
        url: `stdio:env 'MEMORY_FILE_PATH=${file}' ${process.execPath} ${MEMORY}`,
        tools: ['create_entities', 'read_graph'],
      },
    };
    const connections = connect(servers);
    const { tools, problems } = await listMcpTools(servers, connections);
    expect(problems).toEqual([]);
    const [create, read] = tools.map((entry) => mcpTool(entry, connections));
    if (!create || !read) return expect.unreachable();
    expect([create.name, read.name]).toEqual(['memory__create_entities', 'memory__read_graph']);

    const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    expect(await runTool(create, { entities: [entity] }, context)).toMatchObject({ status: 'success' });
    const graph = await runTool(read, {}, context);
    expect(graph).toMatchObject({ status: 'success', content: { entities: [entity], relations: [] } });
  });

  it('says why a command could not be started, with what it wrote to stderr', async () => {
    const servers = {
      broken: { url: `stdio:${process.execPath} -e "console.error('no config found'); process.exit(3)"` },
    };
    const { tools, problems } = await listMcpTools(servers, connect(servers));
    expect(tools).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(/^MCP server broken \(stdio:.*\) could not be reached: .*no config found/),
    ]);
  });
});
