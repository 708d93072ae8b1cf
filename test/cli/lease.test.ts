import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSharedDynamoDbLocal } from '@agentstep/local';
import { DynamoEventLog } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCli, startCli } from '../support/run-cli.js';

let cwd = '';
let script = '';
/** The next turn's script: each turn plays its script from the first step. */
let doneScript = '';

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-lease-'));
  script = join(cwd, 'slow.json');
  // The sleep outlasts the test: the run is killed while it sleeps.
  const slowBatch = batch(['sleep', { ms: 60_000, value: 'never' }], ['echo', { text: 'quick' }]);
  writeFileSync(script, JSON.stringify([slowBatch]));
  doneScript = join(cwd, 'done.json');
  writeFileSync(doneScript, JSON.stringify(['Done.<end>']));
});

/**
 * Starts `agentstep run` on `session` and kills it with SIGKILL mid-batch: once the live view
 * shows the quick call done, while the slow one still runs. Resolves when it is dead.
 */
async function killMidBatch(session: string, leaseSeconds: number): Promise<void> {
  const args = ['run', '--script', script, '--session', session, '--lease', String(leaseSeconds)];
  // Its own process group, killed whole, as closing a terminal does (the store's keeper has its own).
  const run = startCli(args, { cwd, detached: true });
  await run.waitFor(({ stdout }) => (stdout.includes('✓ #1 echo success') ? true : undefined));
  process.kill(-(run.child.pid ?? 0), 'SIGKILL');
  await run.exited;
  expect(run.child.signalCode).toBe('SIGKILL');
}

/**
 * Forgets which process ran each turn (`.agentstep/executions/`), as for a turn an older CLI left:
 * with no owner on record, only its lease frees its session.
 */
function forgetOwners(): void {
  rmSync(join(cwd, '.agentstep', 'executions'), { recursive: true, force: true });
}

/** When the lease of the turn holding `session` ends, as the folder's store holds it. */
async function leaseEnd(session: string): Promise<number> {
  const local = await openSharedDynamoDbLocal(join(cwd, '.agentstep'));
  try {
    const client = DynamoDBDocumentClient.from(local.client);
    const holder = await new DynamoEventLog({ tableName: 'agentstep-events', client }).holder(session);
    expect(holder).toBeDefined();
    return holder?.leaseUntil ?? 0;
  } finally {
    await local.stop();
  }
}

/** The old turn's close, as the log holds it after a take-over. */
async function expectClosedByTakeOver(session: string) {
  const events = jsonLines((await runCli(['events', session, '--json'], { cwd })).stdout);
  const oldTurn = events.findIndex((event) => event.type === 'turn_end');
  expect(events.slice(0, oldTurn + 1).map((event) => event.type)).toEqual([
    'user',
    'turn_start',
    'call',
    'call',
    'result',
    'turn_end',
  ]);
  expect(JSON.parse(String(events[4]?.content))).toEqual([
    { tool: 'sleep', status: 'failure', content: expect.stringContaining('took the session over') },
    { tool: 'echo', status: 'success', content: 'quick' },
  ]);
  expect(events[5]).toMatchObject({ payload: { status: 'failed', error: 'TurnTakenOver' } });
  expect(events.filter((event) => event.type === 'turn_end').map((event) => event.payload)).toMatchObject([
    { status: 'failed' },
    { status: 'done' },
  ]);
}

describe.skipIf(dynamoEndpoint === '')(
  'a run killed with SIGKILL mid-batch (DynamoDB Local in .agentstep/)',
  () => {
    it('its process gone, the next command closes the dead turn at once, keeping the outcome it had; the next run runs', async () => {
      await killMidBatch('orphaned', 600);
      // Any command on the folder: even one that only reads the log finds the turn closed.
      const read = jsonLines((await runCli(['events', 'orphaned', '--json'], { cwd })).stdout);
      expect(read.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'failed' } });
      const next = await runCli(['run', 'Again', '--session', 'orphaned', '--script', doneScript], { cwd });
      expect(next.status).toBe(0);
      const events = jsonLines((await runCli(['events', 'orphaned', '--json'], { cwd })).stdout);
      expect(events.map((event) => event.type)).toEqual([
        'user',
        'turn_start',
        'call',
        'call',
        'result',
        'turn_end',
        'user',
        'turn_start',
        'respond',
        'turn_end',
      ]);
      expect(JSON.parse(String(events[4]?.content))).toEqual([
        {
          tool: 'sleep',
          status: 'failure',
          content: expect.stringMatching(/ended with its process \(pid \d+\)/),
        },
        { tool: 'echo', status: 'success', content: 'quick' },
      ]);
      expect(events[5]).toMatchObject({ payload: { status: 'failed' } });
      expect(events[9]).toMatchObject({ payload: { status: 'done' } });
    });

    it('with no owner on record, holds its session while its lease runs; --take-over takes it at once and closes the dead turn', async () => {
      await killMidBatch('rescued', 600);
      forgetOwners();
      const again = ['run', 'Again', '--session', 'rescued', '--script', doneScript];
      const busy = await runCli(again, { cwd });
      expect(busy.status).toBe(1);
      expect(busy.stderr).toMatch(/Session rescued is busy with turn t-\w+ \(its lease runs until /);
      const next = await runCli([...again, '--take-over'], { cwd });
      expect(next.status).toBe(0);
      expect(next.stderr).toContain('took session rescued over from turn');
      await expectClosedByTakeOver('rescued');
    });

    it('with no owner on record, once the lease has expired, the next turn closes the dead one and runs', async () => {
      await killMidBatch('expired', 1);
      forgetOwners();
      // The lease ends a second after the dead run's last write: wait until it has, by this clock.
      const end = await leaseEnd('expired');
      while (Date.now() <= end) await sleep(end + 1 - Date.now());
      const next = await runCli(['run', 'Again', '--session', 'expired', '--script', doneScript], { cwd });
      expect(next.status).toBe(0);
      expect(next.stderr).toContain('took session expired over from turn');
      await expectClosedByTakeOver('expired');
    });
  },
);
