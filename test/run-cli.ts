import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../packages/cli/bin/agentstep.js', import.meta.url));

/** Runs the real `agentstep` binary in a child process. */
export function runCli(args: string[], input: string | Buffer = '') {
  const { status, stdout, stderr } = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' });
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
