import { readFileSync } from 'node:fs';
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

  it.each([
    [[], {}, '--tools <file.json> is required'],
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
