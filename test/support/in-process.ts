import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { main } from '@agentstep/cli';
import { dynamoDbStore, type MemoryIo, memoryIo } from '@agentstep/cli/testing';
import { localDocumentClient } from './dynamo-client.js';
import type { Served } from './serve-client.js';

/** Where in-process commands cache the synthesized loop: one folder for the run, shared by its workers. */
const cacheDir = () => join(tmpdir(), 'agentstep-in-process-cache');

/** What an in-process command runs in: a project folder, and the table of the run's DynamoDB Local it keeps its store in. */
export interface Project {
  /** The folder relative paths resolve in; its `.agentstep/` is the data folder. */
  cwd: string;
  /** The store's table (every command of the project shares it). */
  table: string;
}

/** A new project folder with a table of its own. */
export function newProject(name: string): Project {
  return { cwd: mkdtempSync(join(tmpdir(), `agentstep-${name}-`)), table: `${name}-${randomUUID()}` };
}

/**
 * An IO as the binary's, but in this process: real files in the project folder, the store on the
 * run's DynamoDB Local (every `--store`), output captured, and Ctrl-C as `requestStop()`.
 */
export function projectIo(project: Project, stdin: string[] = []): MemoryIo {
  const client = localDocumentClient();
  const io = memoryIo({
    stdin,
    dataDir: join(project.cwd, '.agentstep'),
    cacheDir: cacheDir(),
    openStore: () => dynamoDbStore(client, project.table, async () => {}),
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

/** Runs an `agentstep` command in this process, as the binary would in the project folder. */
export async function runInProcess(project: Project, args: string[], stdin = '') {
  const io = projectIo(project, stdin === '' ? [] : [stdin]);
  const status = await main(args, io);
  return { status, stdout: io.out.join(''), stderr: io.err.join('') };
}

/**
 * `agentstep serve --port 0` in this process on the project's store; resolves once it listens.
 * `stop()` asks it to stop as Ctrl-C does and resolves with its exit code.
 */
export function serveInProcess(project: Project, args: string[]): Promise<Served> {
  const io = projectIo(project);
  return new Promise((settle, fail) => {
    let settled = false;
    const exited = main(['serve', '--port', '0', ...args], {
      ...io,
      stdout: (text) => {
        io.stdout(text);
        const listening = /^listening on (http:\/\/\S+)\n/.exec(io.out.join(''));
        if (listening?.[1] && !settled) {
          settled = true;
          settle({
            url: listening[1],
            stop: () => {
              io.requestStop();
              return exited;
            },
            restart: () => serveInProcess(project, args),
          });
        }
      },
    });
    exited.then((code) => {
      if (!settled) fail(new Error(`serve exited (${code}) before listening: ${io.err.join('')}`));
    }, fail);
  });
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
