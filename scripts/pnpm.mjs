#!/usr/bin/env node
/**
 * Runs the project's pinned pnpm with the given arguments, installing it (into `.tools/`) and the
 * workspace's dependencies first when they are missing or out of date. This is what makes
 * `npm start` and `npm test` work on a machine with only Node.js and npm.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '12.21.0';
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const toolDir = join(root, '.tools', `pnpm-${PNPM_VERSION}`);
const binDir = join(toolDir, 'node_modules', '.bin');
const isWindows = process.platform === 'win32';
const pnpmBin = join(binDir, isWindows ? 'pnpm.cmd' : 'pnpm');
const installStamp = join(root, 'node_modules', '.agentstep-install-stamp');
const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` };

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', shell: isWindows });
  if (result.status !== 0) {
    const reason = result.error ? result.error.message : `exit code ${result.status}`;
    console.error(`agentstep: ${what} failed (${reason}).`);
    process.exit(result.status || 1);
  }
}

function ensurePnpm() {
  if (existsSync(pnpmBin)) return;
  console.error(`agentstep: installing pnpm ${PNPM_VERSION} into .tools/ (once)…`);
  mkdirSync(toolDir, { recursive: true });
  run(
    'npm',
    [
      'install',
      '--prefix',
      toolDir,
      '--no-save',
      '--no-package-lock',
      '--loglevel=error',
      `pnpm@${PNPM_VERSION}`,
    ],
    'installing pnpm with npm',
  );
}

function lockfileHash() {
  const hash = createHash('sha256');
  for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml']) {
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

function ensureDependencies() {
  const wanted = lockfileHash();
  if (existsSync(installStamp) && readFileSync(installStamp, 'utf8') === wanted) return;
  console.error('agentstep: installing dependencies from pnpm-lock.yaml…');
  run(pnpmBin, ['install', '--frozen-lockfile', '--prefer-offline'], 'pnpm install');
  writeFileSync(installStamp, wanted);
}

ensurePnpm();
ensureDependencies();
const args = process.argv.slice(2);
if (args.length > 0) run(pnpmBin, args, `pnpm ${args.join(' ')}`);
