import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batch } from '../support/harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';

// What invoke does (idempotent request ids, steps per execution, --events, refused inputs) is
// proven in-process in packages/cli/src/commands/invoke-command.test.ts.
describe('agentstep invoke (the real binary)', () => {
  it('prints the execution output as one JSON line (exit 0); a bad input fails the execution (exit 1)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-invoke-'));
    writeFileSync(join(cwd, 'one.json'), JSON.stringify([batch(['echo', { text: 'x' }]), 'Checked.<end>']));
    const invoke = (input: unknown) =>
      runCli(['invoke', '--input', JSON.stringify(input), '--script', 'one.json', '--store', 'memory'], {
        cwd,
      });

    const done = await invoke({ message: 'Nightly check', requestId: 'event-1' });
    expect(done.status).toBe(0);
    expect(jsonLines(done.stdout)).toEqual([
      expect.objectContaining({ status: 'done', answer: 'Checked.', requestId: 'event-1' }),
    ]);

    const failed = await invoke({ message: 42 });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^agentstep invoke: the execution failed: InvalidTurnRequest: .*message/);
  });
});
