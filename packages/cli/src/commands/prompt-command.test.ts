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

  it.each([
    [
      [],
      {},
      '--tools <file.json> is required where there is no agent file (agent.ts here, or --agent FILE).',
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
});
