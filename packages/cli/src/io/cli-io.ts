import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { makeFolder } from './make-folder.js';

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
  /** Where local runs keep their data: `.agentstep/` in the working directory. */
  dataDir: string;
  /** Where what every folder can share is cached (the synthesized loop). */
  cacheDir: string;
  /** Whether a person watches stderr (a terminal), so live progress can redraw lines. */
  interactive: boolean;
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
    dataDir,
    cacheDir: options.cacheDir ?? join(dataDir, 'cache'),
    interactive: process.stderr.isTTY === true,
  };
}
