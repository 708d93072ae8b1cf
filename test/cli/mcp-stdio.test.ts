import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batch } from '../support/harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/** `@modelcontextprotocol/server-memory`, the MCP project's knowledge-graph server, over stdio. */
const MEMORY_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-memory/dist/index.js',
);

/** A turn that stores an entity through one call, then reads the graph back through another. */
const SCRIPT = [
  batch([
    'memory__create_entities',
    { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
  ]),
  batch(['memory__read_graph', {}]),
  'Ada is remembered.<end>',
];

describe('an MCP server over stdio (`agentstep run --mcp memory=stdio:…`, the real binary)', () => {
  it("calls the server's tools as memory__TOOL: what one call stored, the next reads", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-mcp-stdio-'));
    writeFileSync(join(cwd, 'script.json'), JSON.stringify(SCRIPT));
    const mcp = `memory=stdio:${process.execPath} ${MEMORY_SERVER}`;
    const env = { MEMORY_FILE_PATH: join(cwd, 'memory.jsonl') };
    const args = [
      'run',
      'Remember Ada',
      '--script',
      'script.json',
      '--mcp',
      mcp,
      '--store',
      'memory',
      '--json',
    ];
    const { status, stdout, stderr } = await runCli(args, { cwd, env });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const results = jsonLines(stdout)
      .filter((line) => line.type === 'result')
      .map((line) => JSON.parse(String(line.content)));
    const ada = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    expect(results).toEqual([
      [{ tool: 'memory__create_entities', status: 'success', content: { entities: [ada] } }],
      [
        {
          tool: 'memory__read_graph',
          status: 'success',
          content: expect.objectContaining({ entities: [ada] }),
        },
      ],
    ]);
  });

  it('refuses an --mcp that is not NAME=URL, saying what it takes (exit 2)', async () => {
    const { status, stderr } = await runCli(['run', '--mcp', 'memory', '--store', 'memory']);
    expect(status).toBe(2);
    expect(stderr).toContain('--mcp takes NAME=URL');
  });
});
