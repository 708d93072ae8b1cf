import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTaskTokenCompletions } from '@agentstep/local';
import { inMemoryStores } from '@agentstep/runtime';
import { type MemoryIo, memoryIo } from '../io/memory-io.js';
import type { OpenStore, StoreKind } from '../local/open-store.js';
import { main } from '../main.js';
import { type OutputWaits, outputWaits } from './output-waits.js';

/**
 * The timeout of a test whose commands run the engine: the first one in a worker synthesizes the
 * loop (aws-cdk-lib), seconds when idle and far more on a loaded machine.
 */
export const ENGINE_TEST_TIMEOUT_MS = 120_000;

/** A command's exit code and what it printed. */
export interface CommandResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A command running in this process, its output readable while it runs. */
export interface RunningCommand extends Pick<OutputWaits, 'waitFor'> {
  stdout(): string;
  stderr(): string;
  /** Asks the command to stop, as Ctrl-C does. */
  stop(): void;
  /** Settles with the command's exit code. */
  exited: Promise<number>;
}

/** `agentstep` commands run in this process on one project folder, as the binary's processes share `.agentstep/`. */
export interface MemoryProject {
  /** The project's files by path: what commands write lands here too. */
  files: Record<string, string>;
  /** Runs a command to its end. */
  run(args: string[], stdin?: string): Promise<CommandResult>;
  /** Starts a command without waiting for its end. */
  start(args: string[]): RunningCommand;
}

/**
 * A project for in-process commands: one in-memory store every command of the project opens (task
 * token completions included, so a decision made by one command wakes the call another waits on),
 * in-memory files, and real temporary data and cache folders (workspaces, the synthesized loop).
 * `--store memory` still gives a command a store of its own, as in the binary.
 */
export function memoryProject(files: Record<string, string> = {}): MemoryProject {
  const shared = projectStore();
  const dataDir = mkdtempSync(join(tmpdir(), 'agentstep-cli-project-'));
  const start = (args: string[], stdin: string[] = []) => {
    const io = memoryIo({ stdin, files, dataDir, cacheDir: CACHE_DIR, openStore: shared });
    return runningCommand(io, args);
  };
  return {
    files,
    start,
    run: async (args, stdin) => {
      const command = start(args, stdin === undefined ? [] : [stdin]);
      const status = await command.exited;
      return { status, stdout: command.stdout(), stderr: command.stderr() };
    },
  };
}

/** Where every in-process command of a test run caches the synthesized loop (TMPDIR is the run's own). */
const CACHE_DIR = join(tmpdir(), 'agentstep-cli-unit-cache');

/** The project's store for `dynamodb-local`, opened and closed by each command; a new one for `memory`. */
function projectStore(): (kind: StoreKind) => Promise<OpenStore> {
  // Stands for the folder's DynamoDB Local: it outlives each command that closes it.
  const store: OpenStore = {
    kind: 'dynamodb-local',
    ...inMemoryStores(),
    completions: new InMemoryTaskTokenCompletions(),
    close: async () => {},
  };
  return async (kind) => (kind === 'memory' ? { kind, ...inMemoryStores(), close: async () => {} } : store);
}

/** Runs `main(args)` on `io`; its waits look at the output again after each write. */
function runningCommand(io: MemoryIo, args: string[]): RunningCommand {
  const output = () => ({ stdout: io.out.join(''), stderr: io.err.join('') });
  const waits = outputWaits(output, `agentstep ${args.join(' ')}`);
  const printed = (write: (text: string) => void) => (text: string) => {
    write(text);
    waits.changed();
  };
  const exited = main(args, { ...io, stdout: printed(io.stdout), stderr: printed(io.stderr) });
  exited.finally(waits.ended).catch(() => {});
  return {
    stdout: () => output().stdout,
    stderr: () => output().stderr,
    stop: () => io.requestStop(),
    exited,
    waitFor: waits.waitFor,
  };
}
