// Wall time of each `agentstep` command from a fresh process, cold (a new project folder: no
// synthesis cache, no store) and warm (the same command again, median of three), against the
// targets of issue 9. Run with `npm run bench`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agentstep.js', import.meta.url));
const modelOutput = fileURLToPath(new URL('../../../examples/model-output.txt', import.meta.url));
const tools = fileURLToPath(new URL('../../../examples/tools.json', import.meta.url));
const WARM_RUNS = 3;

/** Runs the binary in `cwd`; its wall time in seconds and its stdout. */
function time(args, cwd, input = '', env = {}) {
  const started = performance.now();
  const { status, stdout, stderr } = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (status !== 0) throw new Error(`agentstep ${args.join(' ')} exited ${status}: ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, stdout };
}

/** Cold, then the median of the warm runs. */
function coldAndWarm(args, cwd, input) {
  const cold = time(args, cwd, input).seconds;
  const warm = Array.from({ length: WARM_RUNS }, () => time(args, cwd, input).seconds).sort((a, b) => a - b);
  return { cold, warm: warm[Math.floor(WARM_RUNS / 2)] };
}

/** One row: PASS or MISS against its target, or INFO for a figure with none. */
function row(label, seconds, target) {
  const verdict = target === undefined ? 'INFO' : seconds <= target ? 'PASS' : 'MISS';
  const goal = target === undefined ? '(no target: information)' : `(target <= ${target} s)`;
  return `${verdict}  ${label.padEnd(50)}${seconds.toFixed(2).padStart(8)} s  ${goal}`;
}

const project = mkdtempSync(join(tmpdir(), 'agentstep-latency-'));
try {
  const input = readFileSync(modelOutput, 'utf8');
  writeFileSync(join(project, 'one-step.json'), JSON.stringify(['Done.']));
  console.log('\nCLI latency, wall time of a fresh process (cold: new project folder; warm: median of 3)');
  // The bundle is the workspace's, not the project's: built (after a source edit) before timing.
  time(['--help'], project);
  const parse = coldAndWarm(['parse'], project, input);
  console.log(row('parse (600 bytes), cold', parse.cold, 0.5));
  console.log(row('parse (600 bytes), warm', parse.warm, 0.5));
  const prompt = coldAndWarm(['prompt', '--tools', tools], project);
  console.log(row('prompt, warm', prompt.warm, 0.5));
  const run = ['run', '--store', 'memory', '--script', 'one-step.json'];
  console.log(row('one-step run (memory store), cold', time(run, project).seconds));
  const warmRun = time(run, project);
  const engineSeconds = Number(/(\d+) ms\n/.exec(warmRun.stdout)?.[1] ?? 0) / 1000;
  console.log(row('one-step run (memory store): above engine time', warmRun.seconds - engineSeconds, 2));
  time(['run', '--session', 'bench', '--script', 'one-step.json'], project);
  for (const command of ['events', 'context', 'stats']) {
    console.log(row(`${command}, store not running`, time([command, 'bench'], project).seconds, 5));
  }
  printWithStoreRunning(project);
} finally {
  rmSync(project, { recursive: true, force: true });
}

/**
 * The same commands while the project's DynamoDB Local runs: kept up between commands by
 * AGENTSTEP_STORE_IDLE_SECONDS, then stopped through its keeper.
 */
function printWithStoreRunning(project) {
  const running = { AGENTSTEP_STORE_IDLE_SECONDS: '120' };
  const oneStep = (session) => ['run', '--session', session, '--script', 'one-step.json'];
  time(oneStep('starts-the-store'), project, '', running);
  try {
    const run = time(oneStep('running'), project, '', running);
    const engineSeconds = Number(/(\d+) ms\n/.exec(run.stdout)?.[1] ?? 0) / 1000;
    console.log(row('one-step run, store running: above engine time', run.seconds - engineSeconds, 2));
    for (const command of ['events', 'context', 'stats']) {
      console.log(
        row(`${command}, store running`, time([command, 'running'], project, '', running).seconds, 1),
      );
    }
  } finally {
    const { pid } = JSON.parse(readFileSync(join(project, '.agentstep', 'store.json'), 'utf8'));
    process.kill(pid, 'SIGTERM');
  }
}
