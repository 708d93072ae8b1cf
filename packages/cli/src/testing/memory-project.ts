import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTaskTokenCompletions } from '@agentstep/local';
import { testCacheDir } from '@agentstep/local/testing';
import { inMemoryStores } from '@agentstep/runtime';
import { memoryIo } from '../io/memory-io.js';
import type { OpenStore, StoreKind } from '../local/open-store.js';
import { type RunningCommand, startCommand } from './start-command.js';

/** A command's exit code and what it printed. */
export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** `agentstep` commands run in this process on one project folder, as the binary's processes share `.agentstep/`. */
export interface MemoryProject {
  /** The project's files by path: what commands write lands here too. */
  files: Record<string, string>;
  /** Runs a command to its end. */
  run(args: string[], stdin?: string): Promise<CommandResult>;
  /** Starts a command without waiting for its end. */
  start(args: string[]): RunningCommand;
  /** The project's store (the folder's DynamoDB Local), to write what no command writes. */
  store: OpenStore;
}

/**
 * A project for in-process commands: one in-memory store every command of the project opens (task
 * token completions included, so a decision made by one command wakes the call another waits on),
 * in-memory files, and a real temporary working folder (with the data folder `.agentstep/` in it,
 * for workspaces) and cache folder (the synthesized loop).
 * `--store memory` still gives a command a store of its own, as in the binary.
 */
export function memoryProject(files: Record<string, string> = {}): MemoryProject {
  const { store, open } = projectStore();
  // An empty working folder of its own: no agent.ts wherever the tests run, unless `--agent` names one.
  const workingDir = mkdtempSync(join(tmpdir(), 'agentstep-cli-project-'));
  const dataDir = join(workingDir, '.agentstep');
  mkdirSync(dataDir);
  const start = (args: string[], stdin: string[] = []) => {
    const io = memoryIo({ stdin, files, workingDir, dataDir, cacheDir: testCacheDir(), openStore: open });
    return startCommand(io, args);
  };
  return {
    files,
    store,
    start,
    run: async (args, stdin) => {
      const command = start(args, stdin === undefined ? [] : [stdin]);
      const status = await command.exited;
      return { status, stdout: command.stdout(), stderr: command.stderr() };
    },
  };
}

/** The project's store for `dynamodb-local`, opened and closed by each command; a new one for `memory`. */
function projectStore(): { store: OpenStore; open: (kind: StoreKind) => Promise<OpenStore> } {
  // Stands for the folder's DynamoDB Local: it outlives each command that closes it.
  const store: OpenStore = {
    kind: 'dynamodb-local',
    ...inMemoryStores(),
    completions: new InMemoryTaskTokenCompletions(),
    close: async () => {},
  };
  return {
    store,
    open: async (kind) => (kind === 'memory' ? { kind, ...inMemoryStores(), close: async () => {} } : store),
  };
}
