import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { copyWorkspace } from '../support/workspace-copy.js';

let copy = '';

/** Runs `agentstep run` from the copy's own binary, so it bundles and synthesizes the copy's sources. */
function run(...args: string[]) {
  const bin = join(copy, 'packages', 'cli', 'bin', 'agentstep.js');
  return runCli(['run', '--store', 'memory', ...args], { bin, cwd: copy });
}

/** Replaces `before` with `after` in one of the copy's files. */
function edit(path: string, before: string, after: string) {
  const file = join(copy, path);
  const source = readFileSync(file, 'utf8');
  expect(source).toContain(before);
  writeFileSync(file, source.replace(before, after));
}

beforeAll(() => {
  copy = copyWorkspace();
});

afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
});

describe('the CLI runs the sources as they are now (its bundle and synthesis caches)', () => {
  // Each run after an edit bundles the sources and synthesizes the loop again: minutes when loaded.
  it('runs an edited function, and an edited example, on the next run', { timeout: 600_000 }, async () => {
    const before = await run();
    expect(before.status).toBe(0);
    expect(before.stdout).toContain('✓ #0 echo success');

    edit(
      'functions/invoke-tool/handler.ts',
      'stepHandler(invokeToolInputSchema, invokeTool, deps)',
      "stepHandler(invokeToolInputSchema, () => Promise.reject(new Error('the edited invoke-tool ran')), deps)",
    );
    const edited = await run('--json');
    expect(edited.stdout).toContain('the edited invoke-tool ran');
    expect(edited.stdout).not.toContain('hello from a tool"');

    edit('examples/demo-script.json', 'All done:', 'Edited demo:');
    expect((await run()).stdout).toContain('Edited demo:');
  });
});
