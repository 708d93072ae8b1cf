#!/usr/bin/env node
/**
 * Runs every workspace package's bench, one at a time (they measure this machine), each to its end:
 * a bench that crashes does not hide the others. A package whose bench has parts (`bench:<part>`
 * scripts) has each part run on its own. Ends with each bench's outcome and its count of PASS, MISS
 * and INFO rows. A MISS is information; the exit code is non-zero only when a bench crashed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pnpm = join(root, 'scripts', 'pnpm.mjs');
const VERDICTS = ['PASS', 'MISS', 'INFO'];

/** The workspace's package folders, as pnpm lists them (the root's own `bench` script runs this one). */
function workspaceFolders() {
  const listed = spawnSync(process.execPath, [pnpm, 'ls', '-r', '--depth', '-1', '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`pnpm ls failed: ${listed.stderr}`);
  // From its JSON: pnpm may print a "Scope: …" line before it.
  return JSON.parse(listed.stdout.slice(listed.stdout.indexOf('[')))
    .map((workspacePackage) => workspacePackage.path)
    .filter((folder) => folder !== root);
}

/** Every bench to run: each package's `bench:<part>` scripts, or its `bench` script when it has none. */
function benches() {
  return workspaceFolders()
    .map((folder) => join(folder, 'package.json'))
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      const { name, scripts = {} } = JSON.parse(readFileSync(file, 'utf8'));
      const parts = Object.keys(scripts).filter((script) => script.startsWith('bench:'));
      const run = parts.length > 0 ? parts : Object.keys(scripts).filter((script) => script === 'bench');
      return run.map((script) => ({ name: `${name} ${script}`, folder: dirname(file), script }));
    });
}

/** Runs one bench, its output passed through; its exit code, seconds and row verdicts. */
function runBench({ folder, script }) {
  const started = performance.now();
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0]));
  const child = spawn(process.execPath, [pnpm, '--dir', folder, 'run', script], {
    cwd: root,
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let partial = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const verdict = /^(PASS|MISS|INFO)\b/.exec(line)?.[1];
      if (verdict) counts[verdict]++;
    }
  });
  return new Promise((settle) => {
    child.once('close', (code, signal) =>
      settle({ code: code ?? signal, seconds: (performance.now() - started) / 1000, counts }),
    );
  });
}

const started = performance.now();
const outcomes = [];
for (const bench of benches()) {
  console.log(`\n=== ${bench.name} (in ${bench.folder.slice(root.length + 1)}) ===`);
  outcomes.push({ ...bench, ...(await runBench(bench)) });
}
const minutes = (performance.now() - started) / 60_000;
console.log(`\n=== Bench summary: ${outcomes.length} benches in ${minutes.toFixed(1)} min ===`);
for (const { name, code, seconds, counts } of outcomes) {
  const rows = VERDICTS.map((verdict) => `${counts[verdict]} ${verdict}`).join(', ');
  const outcome = code === 0 ? 'ran to its end' : `CRASHED (exit ${code})`;
  console.log(`${name.padEnd(36)}${outcome} in ${seconds.toFixed(0)} s: ${rows}`);
}
const crashed = outcomes.filter(({ code }) => code !== 0);
const total = (verdict) => outcomes.reduce((sum, { counts }) => sum + counts[verdict], 0);
console.log(
  `${VERDICTS.map((verdict) => `${total(verdict)} ${verdict}`).join(', ')}; ${crashed.length} benches crashed`,
);
process.exit(crashed.length > 0 ? 1 : 0);
