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
let script = '';
/** The next turn's script: each turn plays its script from the first step. */
let doneScript = '';

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-lease-'));
  script = join(cwd, 'slow.json');
  const slowBatch = batch(['sleep', { ms: 60_000, value: 'never' }], ['echo', { text: 'quick' }]);
  writeFileSync(script, JSON.stringify([slowBatch]));
  doneScript = join(cwd, 'done.json');
  writeFileSync(doneScript, JSON.stringify(['Done.<end>']));
});

/**
 * Starts `agentstep run` on `session` and kills it with SIGKILL mid-batch:
 * once the live view shows the quick call done, while the slow one still runs. Resolves when dead.
 */
function killMidBatch(session: string, leaseSeconds: number): Promise<void> {
  const args = ['run', '--script', script, '--session', session, '--lease', String(leaseSeconds)];
  // Its own process group, killed whole, as closing a terminal does (the store's keeper has its own).
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  return new Promise((settle, fail) => {
    child.stdout.on('data', (part) => {
      stdout += part;
      if (stdout.includes('✓ #1 echo success') && child.pid !== undefined)
        process.kill(-child.pid, 'SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? settle() : fail(new Error(`run ended before the kill (${code}): ${stdout}`)),
    );
  });
}

/** The old turn's close, as the log holds it after a take-over. */
function expectClosedByTakeOver(session: string) {
  const events = jsonLines(runCli(['events', session, '--json'], '', cwd).stdout);
  const oldTurn = events.findIndex((event) => event.type === 'turn_end');
  expect(events.slice(0, oldTurn + 1).map((event) => event.type)).toEqual([
    'user',
    'call',
    'call',
    'result',
    'turn_end',
  ]);
  expect(JSON.parse(String(events[3]?.content))).toEqual([
    { tool: 'sleep', status: 'failure', content: expect.stringContaining('took the session over') },
    { tool: 'echo', status: 'success', content: 'quick' },
  ]);
  expect(events[4]).toMatchObject({ payload: { status: 'failed', error: 'TurnTakenOver' } });
  expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
    { status: 'failed' },
    { status: 'done' },
  ]);
}

describe.skipIf(dynamoEndpoint === '')(
  'a run killed with SIGKILL mid-batch (DynamoDB Local in .agentstep/)',
  () => {
    it('holds its session while its lease runs; --take-over takes it at once and closes the dead turn', async () => {
      await killMidBatch('rescued', 600);
      const busy = runCli(['run', 'Again', '--session', 'rescued', '--script', doneScript], '', cwd);
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(/Session rescued is busy with turn t-\w+ \(its lease runs until /);
      const next = runCli(
        ['run', 'Again', '--session', 'rescued', '--script', doneScript, '--take-over'],
        '',
        cwd,
      );
      expect(next.status).toBe(0);
      expect(next.stderr).toContain('took session rescued over from turn');
      expectClosedByTakeOver('rescued');
    });

    it('once the lease has expired, the next turn closes the dead one and runs', async () => {
      await killMidBatch('expired', 1);
      // The next run starts DynamoDB Local first: more than the 1-second lease has passed by then.
      const next = runCli(['run', 'Again', '--session', 'expired', '--script', doneScript], '', cwd);
      expect(next.status).toBe(0);
      expect(next.stderr).toContain('took session expired over from turn');
      expectClosedByTakeOver('expired');
    });
  },
);
