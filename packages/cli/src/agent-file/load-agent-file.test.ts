import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import { loadAgentFile } from './load-agent-file.js';

const FIXTURES = fileURLToPath(new URL('../testing/fixtures/', import.meta.url));

describe('loadAgentFile', () => {
  it('loads the default export of --agent FILE from the working directory, its script beside it', async () => {
    const loaded = await loadAgentFile('counter-agent.ts', FIXTURES);
    expect(loaded?.file).toBe('counter-agent.ts');
    expect(loaded?.script).toBe(join(FIXTURES, 'counter-script.json'));
    expect(loaded?.agent).toMatchObject({ name: 'counter', model: 'scripted', toolsets: [], approvals: [] });
    expect(loaded?.agent.tools.map((tool) => tool.name)).toEqual(['word_count']);
  });

  it('without --agent, loads agent.ts of the working directory, and nothing where there is none', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentstep-agent-file-'));
    expect(await loadAgentFile(undefined, folder)).toBeUndefined();
    writeFileSync(
      join(folder, 'agent.ts'),
      `export default { name: 'here', instructions: ${JSON.stringify('Be brief.')} as string };\n`,
    );
    expect(await loadAgentFile(undefined, folder)).toMatchObject({
      file: 'agent.ts',
      agent: { name: 'here', instructions: 'Be brief.' },
    });
  });

  it.each([
    [
      'missing-agent.ts',
      `--agent missing-agent.ts: there is no such file (${join(FIXTURES, 'missing-agent.ts')})`,
    ],
    [
      'no-default-agent.ts',
      "no-default-agent.ts: the module has no default export; export default defineAgent({ name, ... }) from '@agentstep/runtime'.",
    ],
    [
      'invalid-agent.ts',
      'invalid-agent.ts: its default export is not a valid agent: name: must be 1–64 letters, digits, "_" or "-", from a letter; toolsets: Invalid input: expected array, received string.',
    ],
    ['broken-agent.ts', "broken-agent.ts: cannot load the agent's file (the agent cannot start)."],
  ])('refuses %s with a UsageError that names it and says why', async (file, message) => {
    const loading = loadAgentFile(file, FIXTURES);
    await expect(loading).rejects.toThrow(UsageError);
    await expect(loading).rejects.toThrow(message);
  });

  it("shows a syntax error's place and reason, not only that the transform failed", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentstep-agent-file-'));
    writeFileSync(join(folder, 'agent.ts'), "export default {\n  name: 'typo',,\n};\n");
    await expect(loadAgentFile(undefined, folder)).rejects.toThrow(
      `agent.ts: cannot load the agent's file (${join(folder, 'agent.ts')}:2:15: ERROR: Expected identifier but found ",").`,
    );
  });

  it('resolves --agent from the working directory, wherever the command runs', async () => {
    const loaded = await loadAgentFile('fixtures/counter-agent.ts', dirname(FIXTURES));
    expect(loaded?.agent.name).toBe('counter');
  });
});
