import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';

/** A provider as a user writes one, in the test fixtures: not the runtime's source. */
const FIXED_PROVIDER = fileURLToPath(new URL('../testing/fixed-provider.mjs', import.meta.url));

/** A folder of the test's own with these modules in it, by file name. */
function modules(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-providers-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('agentstep run --model openai:… without its key', () => {
  it('names the variable to set, as a refused key does, not the SDK’s advice (exit 2)', async () => {
    vi.stubEnv('OPENAI_API_KEY', undefined);
    const { status, stderr } = await memoryProject().run([
      ...['run', 'Hello', '--model', 'openai:gpt-4o-mini', '--store', 'memory'],
    ]);
    expect(status).toBe(2);
    expect(stderr).toBe(
      'agentstep run: openai:gpt-4o-mini needs an API key: set OPENAI_API_KEY to your key (it is not set), or give --base-url URL for a server that takes none.\nRun "agentstep --help" for usage.\n',
    );
  });
});

describe('agentstep run --provider', () => {
  it("runs a turn on a provider a module registers, its model's answer the turn's", async () => {
    const { status, stdout, stderr } = await memoryProject().run([
      ...['run', 'Hello', '--provider', FIXED_PROVIDER, '--model', 'fixed:m1'],
      ...['--base-url', 'http://gateway.example', '--store', 'memory', '--json'],
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = jsonLines(stdout);
    expect(lines.filter((line) => line.type === 'respond').map((line) => line.content)).toEqual([
      'The fixed answer, from m1 at http://gateway.example.',
    ]);
    expect(lines.find((line) => line.type === 'metric')).toMatchObject({ total: { input: 12, output: 7 } });
    expect(lines.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
  });

  it("--help describes --model's providers from the registry, and --provider", async () => {
    const { status, stdout } = await memoryProject().run(['run', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain(
      [
        "step of the session; <provider>:<model> a registered provider's model:",
        '                               bedrock: ConverseStream with your AWS credentials',
        '                               openai: any OpenAI-compatible server (key from OPENAI_API_KEY)',
        '                               anthropic: the Messages API (ANTHROPIC_API_KEY)',
        '  --provider FILE            add a model provider (repeatable)',
      ].join('\n'),
    );
  });

  it('lists the registered provider where the model must be named', async () => {
    const { status, stderr } = await memoryProject().run([
      'run',
      '--provider',
      FIXED_PROVIDER,
      '--model',
      'gpt',
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain(
      '--model must be "scripted", "replay" or one of "bedrock:<model>", "openai:<model>", "anthropic:<model>", "fixed:<model>", received "gpt".',
    );
  });

  it.each([
    [
      'export default { name: "Fixed:1", model: "gpt" };',
      'its default export: Not a model provider: name: must be lower-case letters, digits and "-", from a letter (no ":"); description: Invalid input: expected string, received undefined; model: must be a function.',
    ],
    [
      'export const provider = {};',
      'the module has no default export; export default { name, description, model(modelId, connection) }.',
    ],
    [
      'export default { name: "openai", description: "mine", model: () => ({}) };',
      'its default export: A model provider named "openai" is registered already.',
    ],
    ['export default {', 'cannot load it as a module ('],
  ])('refuses a module %s with exit 2 and why, without a stack trace', async (text, reason) => {
    const provider = join(modules({ 'bad.mjs': text }), 'bad.mjs');
    const { status, stderr } = await memoryProject().run([
      'run',
      '--provider',
      provider,
      '--model',
      'openai:m',
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain(`agentstep run: --provider ${provider}`);
    expect(stderr).toContain(reason);
    expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('refuses a module that is not there, naming it', async () => {
    const missing = join(modules({}), 'missing.mjs');
    const { status, stderr } = await memoryProject().run(['run', '--provider', missing]);
    expect(status).toBe(2);
    expect(stderr).toContain(`--provider ${missing}: cannot load it as a module (Cannot find module`);
  });
});
