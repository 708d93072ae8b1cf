import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { dynamoDbStore, listeningUrl, type MemoryIo, memoryIo, startCommand } from '@agentstep/cli/testing';
import { testCacheDir } from '@agentstep/local/testing';
import type { EventLog } from '@agentstep/runtime';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localDocumentClient } from './dynamo-client.js';
import type { Served } from './serve-client.js';

/** What in-process commands run in: a project folder, and a table of the run's DynamoDB Local for its store. */
export interface Project {
  /** The folder relative paths resolve in; its `.agentstep/` is the data folder. */
  cwd: string;
  /** The store's table (every command of the project shares it). */
  table: string;
  /** The project's one client of the run's DynamoDB Local. */
  client: DynamoDBDocumentClient;
  /** What commands get as the store's log, given it (a decorator that injects events). @default the log itself */
  decorateLog?: (log: EventLog) => EventLog;
}

/** A new project folder with a table of its own. */
export function newProject(name: string): Project {
  return {
    cwd: mkdtempSync(join(tmpdir(), `agentstep-${name}-`)),
    table: `${name}-${randomUUID()}`,
    client: localDocumentClient(),
  };
}

/**
 * An IO as the binary's, but in this process: real files in the project folder, the store on the
 * run's DynamoDB Local (every `--store`), output captured, and Ctrl-C as `requestStop()`.
 */
function projectIo(project: Project): MemoryIo {
  const io = memoryIo({
    dataDir: join(project.cwd, '.agentstep'),
    workingDir: project.cwd,
    cacheDir: testCacheDir(),
    openStore: async () => {
      const store = await dynamoDbStore(project.client, project.table, async () => {});
      return project.decorateLog ? { ...store, log: project.decorateLog(store.log) } : store;
    },
  });
  const path = (file: string) => resolve(project.cwd, file);
  return {
    ...io,
    now: () => Date.now(),
    readFile: (file) => readFile(path(file), 'utf8'),
    writeFile: async (file, text) => {
      mkdirSync(dirname(path(file)), { recursive: true });
      await writeFile(path(file), text);
    },
  };
}

/**
 * `agentstep serve --port 0` in this process on the project's store; resolves once it listens.
 * `stop()` asks it to stop as Ctrl-C does and resolves with its exit code.
 */
export async function serveInProcess(project: Project, args: string[]): Promise<Served> {
  const serving = startCommand(projectIo(project), ['serve', '--port', '0', ...args]);
  const url = await serving.waitFor(listeningUrl);
  const stop = () => {
    serving.stop();
    return serving.exited;
  };
  return { url, stop, restart: () => serveInProcess(project, args) };
}

/** `agentstep ARGS` in this process on `project`'s store, to its end: its exit code and output. */
export async function runInProcess(
  project: Project,
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  const running = startCommand(projectIo(project), args);
  const status = await running.exited;
  return { status, stdout: running.stdout(), stderr: running.stderr() };
}

/**
 * In-process `serve --auth dev` on `project`'s store, every turn playing `script` (kept in the
 * project as `NAME.json`) from its start, with `args` added: servers on one project share a store.
 */
export function serveScriptOn(
  project: Project,
  name: string,
  script: unknown[],
  args: string[] = [],
): Promise<Served> {
  const file = `${name}.json`;
  writeFileSync(join(project.cwd, file), JSON.stringify(script));
  return serveInProcess(project, ['--auth', 'dev', '--script', file, ...args]);
}

/** In-process `serve --auth dev` in a new project whose every turn plays `script` from its start, with `args` added. */
export function serveScriptInProcess(name: string, script: unknown[], args: string[] = []): Promise<Served> {
  return serveScriptOn(newProject(name), name, script, args);
}
