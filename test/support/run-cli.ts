import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type OutputWaits, outputWaits } from '@agentstep/cli/testing';

export { jsonLines } from '@agentstep/cli/testing';

const bin = fileURLToPath(new URL('../../packages/cli/bin/agentstep.js', import.meta.url));

/**
 * The binary's environment: a folder's DynamoDB Local stays up 10 s after its last command, so the
 * commands a test runs one after another on a folder join it rather than each starting Java
 * (~3 s); a later command that finds it stopped starts it again. test/cli/shared-store.test.ts
 * runs with the default instead ({@link STORE_DEFAULTS}).
 */
const CLI_ENV = { ...process.env, AGENTSTEP_STORE_IDLE_SECONDS: '10' };

/** The store's own default: DynamoDB Local stops as soon as its last user leaves. */
export const STORE_DEFAULTS = { AGENTSTEP_STORE_IDLE_SECONDS: '0' };

/** Where and how the binary runs. */
export interface CliOptions {
  /** The binary's path. @default this workspace's `agentstep` */
  bin?: string;
  /** @default this process's working directory */
  cwd?: string;
  /** Added to the binary's environment. */
  env?: Record<string, string>;
  /** Its standard input. @default none */
  input?: string | Buffer;
  /** In a process group of its own, which `kill(-pid)` signals whole, as closing a terminal does. */
  detached?: boolean;
}

/** The binary's exit code (null when a signal ended it) and what it printed. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The real binary running in the background, its output readable while it runs. */
export interface BackgroundCli extends Pick<OutputWaits, 'waitFor'> {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles with the exit code (null when a signal ended it) once its output closed. */
  exited: Promise<number | null>;
}

/** Starts the real `agentstep` binary in a child process; the test reads its output as it comes. */
export function startCli(args: string[], options: CliOptions = {}): BackgroundCli {
  const child = spawn(process.execPath, [options.bin ?? bin, ...args], {
    env: { ...CLI_ENV, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.detached ? { detached: true } : {}),
  });
  child.stdin?.end(options.input ?? '');
  const output = { stdout: '', stderr: '' };
  const waits = outputWaits(() => output, `agentstep ${args.join(' ')}`);
  child.stdout?.on('data', (part) => {
    output.stdout += part;
    waits.changed();
  });
  child.stderr?.on('data', (part) => {
    output.stderr += part;
    waits.changed();
  });
  const exited = new Promise<number | null>((settle) =>
    child.once('close', (code) => {
      waits.ended();
      settle(code);
    }),
  );
  return { child, stdout: () => output.stdout, stderr: () => output.stderr, exited, waitFor: waits.waitFor };
}

/** Runs the real `agentstep` binary to its end, without blocking this process. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const running = startCli(args, options);
  const status = await running.exited;
  return { status, stdout: running.stdout(), stderr: running.stderr() };
}
