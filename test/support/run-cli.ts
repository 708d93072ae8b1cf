import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../packages/cli/bin/agentstep.js', import.meta.url));

/**
 * The binary's environment: a folder's DynamoDB Local stays up 10 s after its last command, so the
 * commands a test runs one after another on a folder join it rather than each starting Java
 * (~3 s). test/shared-store.test.ts runs with the default instead ({@link STORE_DEFAULTS}).
 */
const CLI_ENV = { ...process.env, AGENTSTEP_STORE_IDLE_SECONDS: '10' };

/** The store's own default: DynamoDB Local stops as soon as its last user leaves. */
export const STORE_DEFAULTS = { AGENTSTEP_STORE_IDLE_SECONDS: '0' };

/** Runs the real `agentstep` binary in a child process, in `cwd` when given, `env` added to its environment. */
export function runCli(
  args: string[],
  input: string | Buffer = '',
  cwd?: string,
  env: Record<string, string> = {},
) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [bin, ...args], {
    env: { ...CLI_ENV, ...env },
    input,
    encoding: 'utf8',
    timeout: 120_000,
    ...(cwd === undefined ? {} : { cwd }),
  });
  return { status, stdout, stderr };
}

/** The JSON lines a command printed. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** Runs the real binary without blocking this process, so a server in the test can answer it. */
export function runCliAsync(args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((settle) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...CLI_ENV, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part) => {
      stdout += part;
    });
    child.stderr.on('data', (part) => {
      stderr += part;
    });
    child.on('close', (status) => settle({ status, stdout, stderr }));
    child.stdin.end();
  });
}

/**
 * The real binary started in the background in `cwd`, its output readable while it runs (for
 * waiting on a line of its live view); `exited` settles with its exit code once its output closed.
 */
export function startCli(args: string[], cwd: string) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: CLI_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (part) => {
    stdout += part;
  });
  child.stderr?.on('data', (part) => {
    stderr += part;
  });
  const exited = new Promise<number | null>((settle) => child.once('close', settle));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}
