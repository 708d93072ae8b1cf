// The HTTP API's cost on this machine, against `agentstep serve` on DynamoDB Local: the latency a
// turn's API path adds over the engine's own time (POST /sessions until the stream's done frame),
// and the SSE delivery lag (an event's timestamp until its frame arrives). Run with `npm run bench`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agentstep.js', import.meta.url));
const TURNS = 15;
/** Each turn: one batch of an echo (results follow calls at once), then an answer. */
const SCRIPT = ['<execute>[{"name": "echo", "args": {"text": "hi"}}]</execute>', 'Done.<end>'];

/** Starts `agentstep serve` in `cwd`; its URL once it listens, and the process. */
function serve(cwd) {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--script', 'script.json'], { cwd });
  return new Promise((settle, fail) => {
    let stdout = '';
    child.stdout.on('data', (part) => {
      stdout += part;
      const url = /^listening on (\S+)\n/.exec(stdout)?.[1];
      if (url) settle({ url, child });
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}

/** Runs one turn over HTTP: its wall time to the done frame, and each logged frame's lag. */
async function turnOverHttp(url) {
  const started = performance.now();
  const response = await fetch(`${url}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Hi' }),
  });
  const { session } = await response.json();
  const stream = await fetch(`${url}/sessions/${session}/stream`);
  const connectedAt = Date.now();
  const lags = [];
  let text = '';
  for await (const chunk of stream.body) {
    text += Buffer.from(chunk).toString('utf8');
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (/^event: done$/m.test(frame)) return { ms: performance.now() - started, lags };
      const storedAt = data && /^id: /m.test(frame) ? JSON.parse(data).timestamp * 1000 : 0;
      // Live frames only: the backlog sent on connecting was stored before the stream existed.
      if (storedAt >= connectedAt) lags.push(Date.now() - storedAt);
    }
  }
  throw new Error('the stream ended without done');
}

/** The engine time of the same turn run directly, from `agentstep run`'s summary line. */
function directEngineMs(cwd, session) {
  const env = { ...process.env, AGENTSTEP_STORE_IDLE_SECONDS: '60' };
  const { stdout } = spawnSync(
    process.execPath,
    [bin, 'run', '--session', session, '--script', 'script.json'],
    {
      cwd,
      env,
      encoding: 'utf8',
    },
  );
  return Number(/, (\d+) ms\n/.exec(stdout)?.[1] ?? Number.NaN);
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
/** One row: PASS or MISS against its target, or INFO for a figure with none. */
const row = (label, value, target) =>
  `${target === undefined ? 'INFO' : value <= target ? 'PASS' : 'MISS'}  ${label.padEnd(50)}${value.toFixed(1).padStart(8)} ms  ${target === undefined ? '(no target: information)' : `(target <= ${target} ms)`}`;

const project = mkdtempSync(join(tmpdir(), 'agentstep-api-bench-'));
writeFileSync(join(project, 'script.json'), JSON.stringify(SCRIPT));
const { url, child } = await serve(project);
try {
  await turnOverHttp(url); // warm: the first turn loads the handlers
  const turns = [];
  for (let index = 0; index < TURNS; index++) turns.push(await turnOverHttp(url));
  const engine = Array.from({ length: 3 }, (_, index) => directEngineMs(project, `direct-${index}`));
  const apiMs = median(turns.map((turn) => turn.ms));
  console.log(`\nHTTP API on agentstep serve (DynamoDB Local), ${TURNS} turns of 2 model steps and 1 call`);
  console.log(row('one turn over HTTP (POST to done), median', apiMs));
  console.log(row('the same turn run directly (engine), median', median(engine)));
  console.log(row('added by the API path per turn', apiMs - median(engine)));
  const lags = turns.flatMap((turn) => turn.lags);
  console.log(row(`SSE delivery lag, p50 of ${lags.length} frames`, median(lags), 50));
  console.log(row('SSE delivery lag, p90', lags.toSorted((a, b) => a - b)[Math.floor(lags.length * 0.9)]));
} finally {
  child.kill('SIGINT');
  await new Promise((settle) => child.once('exit', settle));
  rmSync(project, { recursive: true, force: true });
}
