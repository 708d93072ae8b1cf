import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCli, startCli } from '../support/run-cli.js';

/** Two calls that wait for an approval nobody gives (`--approve sleep`): only the cancel ends them. */
const WAITING = batch(['sleep', { ms: 1, value: 'a' }], ['sleep', { ms: 1, value: 'b' }]);

// The same stop while the calls run (rather than wait) is proven in-process in
// packages/cli/src/commands/run-command.test.ts.
describe.skipIf(dynamoEndpoint === '')('Ctrl-C in `agentstep run` (the real binary)', () => {
  it('cancels the turn mid-batch (exit 130): its waiting calls settled, the turn cancelled, the session usable', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-ctrl-c-'));
    writeFileSync(join(cwd, 'waiting.json'), JSON.stringify([WAITING, 'Done.<end>']));
    writeFileSync(join(cwd, 'quick.json'), JSON.stringify(['Done.<end>']));
    const args = [
      'run',
      '--session',
      'interrupted',
      '--script',
      'waiting.json',
      '--approve',
      'sleep',
      '--json',
    ];
    const run = startCli(args, { cwd });
    const requested = (stdout: string) => stdout.match(/"status":"requested"/g)?.length ?? 0;
    await run.waitFor(({ stdout }) => (requested(stdout) === 2 ? true : undefined));
    // Once: a second Ctrl-C quits at once.
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(
      /turn t-\w+ was cancelled; session interrupted is free for the next message/,
    );

    const again = await runCli(['run', 'Again', '--session', 'interrupted', '--script', 'quick.json'], {
      cwd,
    });
    expect(again.status).toBe(0);
    // What the log holds after a stop is proven in-process; here, that the signal reached the turn.
    const events = jsonLines((await runCli(['events', 'interrupted', '--json'], { cwd })).stdout);
    expect(events.filter((event) => event.type === 'approval').map((event) => event.payload)).toMatchObject([
      { status: 'requested' },
      { status: 'requested' },
      { status: 'cancelled' },
      { status: 'cancelled' },
    ]);
    expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
      { status: 'cancelled' },
      { status: 'done' },
    ]);
  });
});
