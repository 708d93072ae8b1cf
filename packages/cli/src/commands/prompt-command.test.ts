import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

const tools = [
  {
    name: 'read',
    description: 'Reads a file.',
    parameters: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] },
  },
];

const COUNTER = fileURLToPath(new URL('../testing/fixtures/counter-agent.ts', import.meta.url));
/** An MCP server over stdio whose one tool is `shout`. */
const SHOUT_SERVER = fileURLToPath(new URL('../testing/fixtures/shout-mcp-server.mjs', import.meta.url));

/** An agent file's default export, as plain data: the demo toolset and a Lambda tool. */
const lookupAgent = {
  name: 'orders',
  instructions: 'Look orders up.',
  toolsets: ['demo'],
  lambdaTools: [
    {
      name: 'lookup',
      description: 'Looks an order up.',
      parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      functionName: 'orders-lookup',
    },
  ],
};

describe('agentstep prompt', () => {
  it('prints the system prompt for the tools in the file', async () => {
    const io = memoryIo({ files: { 'tools.json': JSON.stringify(tools) } });
    expect(await main(['prompt', '--tools', 'tools.json'], io)).toBe(0);
    const prompt = io.out.join('');
    expect(prompt).toContain('## read\nReads a file.');
    expect(prompt).toContain('"name": "read"');
  });

  it('prints the system prompt for the example tools file', async () => {
    const example = readFileSync(new URL('../../../../examples/tools.json', import.meta.url), 'utf8');
    const io = memoryIo({ files: { 'tools.json': example } });
    expect(await main(['prompt', '--tools', 'tools.json'], io)).toBe(0);
    expect(io.out.join('')).toContain('## write\nWrites a file in the session workspace.');
  });

  it('without --tools, prints the prompt of agent.ts here: its instructions, toolsets, own and Lambda tools', async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'agentstep-prompt-'));
    writeFileSync(join(workingDir, 'agent.ts'), `export default ${JSON.stringify(lookupAgent)};\n`);
    const io = memoryIo({ workingDir });
    expect(await main(['prompt'], io)).toBe(0);
    const prompt = io.out.join('');
    expect(prompt).toMatch(/^Look orders up\.\n\n# How you work\n/);
    expect(prompt).toContain('## echo\n');
    expect(prompt).toContain('## lookup\nLooks an order up.\nArguments (JSON Schema): ');
    expect(prompt.indexOf('## echo\n')).toBeLessThan(prompt.indexOf('## lookup\n'));
    expect(io.err.join('')).toBe('agentstep: agent orders (agent.ts)\n');
  });

  it("--agent FILE's prompt, its own tools described by the user's zod; --tools and --instructions override", async () => {
    const own = memoryIo();
    expect(await main(['prompt', '--agent', COUNTER], own)).toBe(0);
    expect(own.out.join('')).toMatch(/^You count words for the user, with word_count\.\n/);
    expect(own.out.join('')).toContain('## word_count\nCounts the words of a text.');
    expect(own.out.join('')).toContain('The text whose words to count');
    const io = memoryIo({ files: { 'tools.json': JSON.stringify(tools) } });
    expect(await main(['prompt', '--agent', COUNTER, '--tools', 'tools.json'], io)).toBe(0);
    expect(io.out.join('')).toMatch(/^You count words for the user, with word_count\.\n/);
    expect(io.out.join('')).toContain('## read\n');
    expect(io.out.join('')).not.toContain('## word_count\n');
    const instructed = memoryIo();
    expect(await main(['prompt', '--agent', COUNTER, '--instructions', 'Be brief.'], instructed)).toBe(0);
    expect(instructed.out.join('')).toMatch(/^Be brief\.\n\n# How you work\n/);
    expect(instructed.out.join('')).toContain('## word_count\n');
  });

  it("--mcp adds an MCP server's tools after the agent's own, as a run's first step lists them", async () => {
    const io = memoryIo();
    const mcp = `loud=stdio:${process.execPath} ${SHOUT_SERVER}`;
    expect(await main(['prompt', '--agent', COUNTER, '--mcp', mcp], io)).toBe(0);
    const prompt = io.out.join('');
    expect(prompt).toContain(
      '## loud__shout\nReturns the text in capitals. (tool shout of the MCP server loud)\n',
    );
    expect(prompt.indexOf('## word_count\n')).toBeLessThan(prompt.indexOf('## loud__shout\n'));
  });

  it('--tools and --fetch-hosts name built-in toolsets and hosts as they do on run', async () => {
    const io = memoryIo();
    expect(await main(['prompt', '--tools', 'http', '--fetch-hosts', 'example.com'], io)).toBe(0);
    expect(io.out.join('')).toContain('## http_fetch\n');
    expect(io.out.join('')).not.toContain('## echo\n');
  });

  it.each([
    [
      [],
      {},
      '--tools is required where there is no agent file (agent.ts here, or --agent FILE): built-in toolsets (--tools demo,workspace) or tool descriptions (--tools FILE.json).',
    ],
    [['--tools', 'missing.json'], {}, 'Cannot read the tools file missing.json (ENOENT)'],
    [['--tools', 'bad.json'], { 'bad.json': '{' }, 'bad.json is not valid JSON'],
    [['--tools', 'shape.json'], { 'shape.json': '[{"name": "read"}]' }, '→ at [0].description'],
  ])('explains %j with exit 2', async (args, files, reason) => {
    const io = memoryIo({ files });
    expect(await main(['prompt', ...args], io)).toBe(2);
    expect(io.err.join('')).toContain(reason);
  });
});

describe('agentstep', () => {
  it('prints usage for --help, after a command too, and rejects unknown commands', async () => {
    const help = memoryIo();
    expect(await main(['--help'], help)).toBe(0);
    expect(help.out.join('')).toContain('agentstep parse');
    const commandHelp = memoryIo();
    expect(await main(['serve', '--auth', 'jwt', '--help'], commandHelp)).toBe(0);
    expect(commandHelp.out.join('')).toContain('--jwt-issuer URL');
    const unknown = memoryIo();
    expect(await main(['launch'], unknown)).toBe(2);
    expect(unknown.err.join('')).toBe(
      'agentstep: Unknown command "launch".\nRun "agentstep --help" for usage.\n',
    );
  });

  it.each<[string[], string]>([
    [['rnu'], 'agentstep: Unknown command "rnu": did you mean run?'],
    [['run', '--modle', 'openai:gpt-4o'], 'agentstep run: unknown option --modle: did you mean --model?'],
    [['serve', '--prot', '0'], 'agentstep serve: unknown option --prot: did you mean --port?'],
    [['invoke', '--inptu', '{}'], 'agentstep invoke: unknown option --inptu: did you mean --input?'],
    [['workflow', 'run', 'f.agentfile', '--inputs', 'a=b'], 'unknown option --inputs: did you mean --input?'],
    [['events', 's', '--jsno'], 'agentstep events: unknown option --jsno: did you mean --json?'],
    [['approve', 's', 'a', '--deyn'], 'agentstep approve: unknown option --deyn: did you mean --deny?'],
    [
      ['parse', '--chunk-szie', '2'],
      'agentstep parse: unknown option --chunk-szie: did you mean --chunk-size?',
    ],
    [['prompt', '--intructions', 'x'], 'unknown option --intructions: did you mean --instructions?'],
    [['run', '--zzz'], 'agentstep run: unknown option --zzz.'],
  ])('%j: exit 2, naming the unknown command or option and the one it is closest to', async (args, line) => {
    const io = memoryIo();
    expect(await main(args, io)).toBe(2);
    expect(io.err.join('')).toContain(`${line}\nRun "agentstep --help" for usage.\n`);
  });

  it.each(['events', 'context', 'stats', 'fork'])(
    '%s, which reads a session and loads no agent, takes the agent options as every command does, checked',
    async (command) => {
      const io = memoryIo();
      const at = command === 'fork' || command === 'context' ? ['--at', '1'] : [];
      const status = await main([command, 's-none', '--agent', 'agent.ts', '--tools', 'demo', ...at], io);
      // Past the options: the session does not exist (a usage error would be exit 2).
      expect(io.err.join('')).not.toContain('unknown option');
      expect(status).toBe(1);
      const wrong = memoryIo();
      expect(await main([command, 's-none', '--mcp', 'not-a-pair'], wrong)).toBe(2);
      expect(wrong.err.join('')).toContain('--mcp takes NAME=URL');
    },
  );
});
