import { copyFileSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../../packages/cli/src/testing/fixtures/', import.meta.url));
const CLI_MODULES = fileURLToPath(new URL('../../packages/cli/node_modules', import.meta.url));

// What an agent file does is proven in-process (packages/cli/src/commands/agent-file-commands.test.ts);
// this proves the bundled binary loads one: TypeScript through tsx, the user's own zod beside it.
describe('agentstep with an agent file (the real binary)', () => {
  it("runs agent.ts of its working directory: the agent's own tool, its script beside it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-agent-file-'));
    // The project's dependencies, as a user's npm install gives them: @agentstep/runtime and zod.
    symlinkSync(CLI_MODULES, join(cwd, 'node_modules'), 'dir');
    copyFileSync(join(FIXTURES, 'counter-agent.ts'), join(cwd, 'agent.ts'));
    copyFileSync(join(FIXTURES, 'counter-script.json'), join(cwd, 'counter-script.json'));
    const { status, stdout, stderr } = await runCli(['run', 'Count', '--store', 'memory', '--json'], { cwd });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = jsonLines(stdout);
    const result = lines.find((line) => line.type === 'result');
    expect(JSON.parse(String(result?.content))).toEqual([
      { tool: 'word_count', status: 'success', content: { words: 3 } },
    ]);
    expect(lines.filter((line) => line.type === 'respond').map((line) => line.content)).toEqual([
      'There are 3 words.',
    ]);
  });

  it('shows where an agent.ts that does not parse goes wrong, exit 2', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-agent-file-'));
    writeFileSync(join(cwd, 'agent.ts'), "export default {\n  name: 'typo',,\n};\n");
    const { status, stderr } = await runCli(['prompt'], { cwd });
    expect(status).toBe(2);
    expect(stderr).toContain(
      `agentstep prompt: agent.ts: cannot load the agent's file (${join(cwd, 'agent.ts')}:2:15: ERROR: Expected identifier but found ",").\n`,
    );
  });
});
