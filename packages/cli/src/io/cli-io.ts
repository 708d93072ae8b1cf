import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { OpenStore, StoreKind } from '../local/open-store.js';
import { makeFolder } from './make-folder.js';
import { usesColor } from './uses-color.js';

/** Everything a command touches outside itself, so tests can run commands in memory. */
export interface CliIo {
  /** Standard input as text chunks, in the order they arrive. */
  stdin: AsyncIterable<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Milliseconds since the Unix epoch. */
  now(): number;
  readFile(path: string): Promise<string>;
  /** Writes a file, creating its folder. */
  writeFile(path: string, text: string): Promise<void>;
  /** Where relative paths resolve, and where `agent.ts` is looked for. */
  workingDir: string;
  /** Where local runs keep their data: `.agentstep/` in the working directory. */
  dataDir: string;
  /** Where what every folder can share is cached (the synthesized loop). */
  cacheDir: string;
  /** Whether a person watches stderr (a terminal), so live progress can redraw lines. */
  interactive: boolean;
  /** Whether stdout may carry ANSI colour: a terminal, with `NO_COLOR` unset (see `usesColor`). */
  color: boolean;
  /**
   * Opens the store local runs keep their log in: `dynamodb-local`, the DynamoDB Local every process
   * on `dataDir` shares, or `memory` (see `openStore`). `notice` hears what the user should know.
   */
  openStore(kind: StoreKind, notice: (text: string) => void): Promise<OpenStore>;
  /**
   * Calls `listener` once, when the user first asks the command to stop (Ctrl-C, SIGTERM), so a
   * second request finds no listener and quits at once; the returned function stops listening.
   */
  onStopRequest(listener: () => void): () => void;
}

/**
 * The process's real streams, clock and file system. The cache is `options.cacheDir`, else the
 * data folder's `cache/`.
 */
export function processIo(options: { cacheDir?: string } = {}): CliIo {
  process.stdin.setEncoding('utf8');
  const dataDir = resolve('.agentstep');
  return {
    stdin: process.stdin,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    now: () => Date.now(),
    readFile: (path) => readFile(path, 'utf8'),
    writeFile: async (path, text) => {
      await makeFolder(dirname(path));
      await writeFile(path, text);
    },
    workingDir: process.cwd(),
    dataDir,
    cacheDir: options.cacheDir ?? join(dataDir, 'cache'),
    interactive: process.stderr.isTTY === true,
    color: usesColor(process.stdout, process.env),
    // Imported when a command opens a store, so `parse` never loads the engine or the SDK.
    openStore: async (kind, notice) =>
      (await import('../local/open-store.js')).openStore(kind, dataDir, notice),
    onStopRequest: (listener) => {
      const stopListening = () => {
        process.off('SIGINT', requested);
        process.off('SIGTERM', requested);
      };
      const requested = () => {
        stopListening();
        listener();
      };
      process.once('SIGINT', requested);
      process.once('SIGTERM', requested);
      return stopListening;
    },
  };
}
