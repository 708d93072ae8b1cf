import { readFile } from 'node:fs/promises';

/** Everything a command touches outside itself, so tests can run commands in memory. */
export interface CliIo {
  /** Standard input as text chunks, in the order they arrive. */
  stdin: AsyncIterable<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Milliseconds since the Unix epoch. */
  now(): number;
  readFile(path: string): Promise<string>;
}

/** The process's real streams, clock and file system. */
export function processIo(): CliIo {
  process.stdin.setEncoding('utf8');
  return {
    stdin: process.stdin,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    now: () => Date.now(),
    readFile: (path) => readFile(path, 'utf8'),
  };
}
