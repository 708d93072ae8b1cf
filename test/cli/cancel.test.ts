import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';

const bin = fileURLToPath(new URL('../../packages/cli/bin/agentstep.js', import.meta.url));
let cwd = '';

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-ctrl-c-'));
  const sleeps = batch(['sleep', { ms: 10_000, value: 'a' }], ['sleep', { ms: 10_000, value: 'b' }]);
  writeFileSync(join(cwd, 'sleeps.json'), JSON.stringify([sleeps, 'Done.<end>']));
  writeFileSync(join(cwd, 'quick.json'), JSON.stringify(['Done.<end>']));
});

/** `agentstep run --json` interrupted with SIGINT once its batch's two calls are logged. */
function interruptedRun(session: string): Promise<{ code: number | null; stderr: string }> {
  const args = ['run', '--session', session, '--script', 'sleeps.json', '--json'];
  const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (part) => {
    stderr += part;
  });
  let interrupted = false;
  child.stdout.on('data', (part) => {
    stdout += part;
    if (interrupted || (stdout.match(/"type":"call"/g) ?? []).length < 2) return;
    // Once: a second Ctrl-C quits at once.
    interrupted = child.kill('SIGINT');
  });
  return new Promise((settle) => child.once('exit', (code) => settle({ code, stderr })));
}

describe.skipIf(dynamoEndpoint === '')('Ctrl-C in `agentstep run`', () => {
  it('cancels the turn mid-batch (exit 130): each call answered, the turn cancelled, the session usable', async () => {
    const { code, stderr } = await interruptedRun('interrupted');
    expect(code).toBe(130);
    expect(stderr).toMatch(/turn t-\w+ was cancelled; session interrupted is free for the next message/);
    expect(
      runCli(['run', 'Again', '--session', 'interrupted', '--script', 'quick.json'], '', cwd).status,
    ).toBe(0);
    const events = jsonLines(runCli(['events', 'interrupted', '--json'], '', cwd).stdout);
    expect(events.map((event) => event.type)).toEqual([
      'user',
      'call',
      'call',
      'result',
      'turn_end',
      'user',
      'respond',
      'turn_end',
    ]);
    expect(JSON.parse(String(events[3]?.content)).map((item: { status: string }) => item.status)).toEqual([
      'failure',
      'failure',
    ]);
    expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
      { status: 'cancelled' },
      { status: 'done' },
    ]);
  });
});
