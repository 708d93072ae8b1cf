// The HTTP API's cost on this machine, against `agentstep serve` on DynamoDB Local: the latency a
// turn's API path adds over the engine's own time (POST /sessions until the stream's done frame),
// the SSE delivery lag (an event's timestamp until its frame arrives), and the first token's lag
// (a model server's first chunk until its `respond_delta` frame, or with `?format=ai-sdk` its first
// `text-delta` part, arrives). Run with `npm run bench`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agentstep.js', import.meta.url));
const TURNS = 15;
/** Each turn: one batch of an echo (results follow calls at once), then an answer. */
const SCRIPT = ['<execute>[{"name": "echo", "args": {"text": "hi"}}]</execute>', 'Done.<end>'];

/** Starts `agentstep serve` in `cwd` with `args`; its URL once it listens, and the process. */
function serve(cwd, args = ['--script', 'script.json']) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.SERVE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVE_PROF}`] : []),
      bin,
      'serve',
      '--port',
      '0',
      ...args,
    ],
    { cwd },
  );
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
  for await (const { event, data, id } of framesOf(stream)) {
    if (event === 'done') return { ms: performance.now() - started, lags };
    const storedAt = data && id !== undefined ? JSON.parse(data).timestamp * 1000 : 0;
    // Live frames only: the backlog sent on connecting was stored before the stream existed.
    if (storedAt >= connectedAt) lags.push(Date.now() - storedAt);
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

/** Each SSE frame of a response, as its lines' fields, as it arrives. */
async function* framesOf(response) {
  let text = '';
  for await (const chunk of response.body) {
    text += Buffer.from(chunk).toString('utf8');
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      yield {
        event: /^event: (.*)$/m.exec(frame)?.[1],
        data: /^data: (.*)$/m.exec(frame)?.[1],
        id: /^id: (.*)$/m.exec(frame)?.[1],
      };
    }
  }
}

const FIRST_TOKEN_TURNS = 8;
const CHUNK_MS = 100;

/**
 * An OpenAI-compatible model server answering in 20 chunks `CHUNK_MS` apart, once `open()` says
 * a stream of the session follows (a client that joins mid-step gets that step from the log).
 */
async function chunkingModel() {
  // One turn at a time: each request waits for the stream of its turn, then the next one's.
  let open = () => {};
  const nextGate = () =>
    new Promise((settle) => {
      open = settle;
    });
  let gate = nextGate();
  const firstChunks = [];
  const server = createServer((request, response) => {
    request.resume();
    const opened = gate;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    void (async () => {
      await opened;
      gate = nextGate();
      for (let index = 0; index < 20; index++) {
        await new Promise((settle) => setTimeout(settle, CHUNK_MS));
        if (index === 0) firstChunks.push(performance.now());
        response.write(chunk({ content: index < 19 ? `word${index} ` : `word${index}.<end>` }));
      }
      response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    })();
  });
  await new Promise((settle) => server.listen(0, '127.0.0.1', settle));
  return { url: `http://127.0.0.1:${server.address().port}`, firstChunks, open: () => open(), server };
}

/** The type of an AI SDK UI message stream part (`[DONE]` has none). */
const partType = (frame) => (frame.data?.startsWith('{') ? JSON.parse(frame.data).type : undefined);

/** How each stream format shows a turn's start (the stream is attached), its first token and its end. */
const FORMATS = {
  agentstep: {
    query: '',
    started: (frame) => frame.event === 'user',
    token: (frame) => frame.event === 'respond_delta',
    ended: (frame) => frame.event === 'done',
  },
  'ai-sdk': {
    query: '?format=ai-sdk',
    started: (frame) => partType(frame) === 'start',
    token: (frame) => partType(frame) === 'text-delta',
    ended: (frame) => frame.data === '[DONE]',
  },
};

/** One turn on the chunking model: how long after its first chunk the first token arrived in `format`. */
async function firstTokenMs(url, model, format) {
  const response = await fetch(`${url}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Count' }),
  });
  const { session } = await response.json();
  let first;
  for await (const frame of framesOf(await fetch(`${url}/sessions/${session}/stream${format.query}`))) {
    if (format.started(frame)) model.open();
    if (format.token(frame)) first ??= performance.now() - (model.firstChunks.at(-1) ?? Number.NaN);
    if (format.ended(frame)) return first;
  }
  throw new Error('the stream ended without its end');
}

/** Serves a model that streams its answer, and measures the first token's lag in each stream format. */
async function firstTokenLags() {
  const model = await chunkingModel();
  const project = mkdtempSync(join(tmpdir(), 'agentstep-first-token-bench-'));
  const { url, child } = await serve(project, ['--model', 'openai:m', '--base-url', model.url]);
  try {
    await firstTokenMs(url, model, FORMATS.agentstep); // warm
    const lags = { agentstep: [], 'ai-sdk': [] };
    for (let index = 0; index < FIRST_TOKEN_TURNS; index++)
      for (const [name, format] of Object.entries(FORMATS))
        lags[name].push(await firstTokenMs(url, model, format));
    return lags;
  } finally {
    child.kill('SIGINT');
    await new Promise((settle) => child.once('exit', settle));
    model.server.close();
    rmSync(project, { recursive: true, force: true });
  }
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
/** One row: PASS or MISS against its target, or INFO for a figure with none. */
const row = (label, value, target) =>
  `${target === undefined ? 'INFO' : value <= target ? 'PASS' : 'MISS'}  ${label.padEnd(50)}${value.toFixed(1).padStart(8)} ms  ${target === undefined ? '(no target: information)' : `(target <= ${target} ms)`}`;

/** A row of a figure that is no time: PASS or MISS when it reaches its `floor`, or INFO. */
const count = (label, value, floor) =>
  `${floor === undefined ? 'INFO' : value >= floor ? 'PASS' : 'MISS'}  ${label.padEnd(50)}${value.toFixed(2).padStart(8)}     ${floor === undefined ? '(no target: information)' : `(target >= ${floor})`}`;
/** `--watchers`: only the rows of many streams and busy sessions. */
const watchersOnly = process.argv.includes('--watchers');

/** One turn at a time over HTTP: the API path's cost and the SSE lag. */
async function turnRows() {
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
}

const INTERRUPTS = 5;

/** One interrupt: a turn waits for approval, then a message with `ifBusy: "interrupt"`; ms until its turn runs. */
async function interruptMs(url) {
  const post = (path, body) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const { session } = await (await post('/sessions', { message: 'Hold' })).json();
  // The first turn waits once its call's approval is logged.
  for (;;) {
    const { status } = await (await fetch(`${url}/sessions/${session}`)).json();
    if (status === 'waiting') break;
    await new Promise((settle) => setTimeout(settle, 20));
  }
  const started = performance.now();
  const answer = await (
    await post(`/sessions/${session}/messages`, { message: 'Instead', ifBusy: 'interrupt' })
  ).json();
  if (answer.status !== 'running')
    throw new Error(`the interrupting message was answered ${JSON.stringify(answer)}`);
  return performance.now() - started;
}

/** Interrupts turns that wait for approval on a server of their own. */
async function interruptLags() {
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-api-bench-interrupt-'));
  writeFileSync(join(folder, 'script.json'), JSON.stringify(SCRIPT));
  const served = await serve(folder, ['--script', 'script.json', '--approve', 'echo']);
  try {
    const times = [];
    for (let index = 0; index < INTERRUPTS; index++) times.push(await interruptMs(served.url));
    return times;
  } finally {
    served.child.kill('SIGINT');
    await new Promise((settle) => served.child.once('exit', settle));
    rmSync(folder, { recursive: true, force: true });
  }
}

const SUSPENDED_TURNS = 10;
/** Every turn: three sleeps of 60 s at once, then an answer: it runs until something stops it. */
const SLEEPS = [
  `<execute>${JSON.stringify([1, 2, 3].map((n) => ({ name: 'sleep', args: { ms: 60_000, value: `${n}` } })))}</execute>`,
  'Done.<end>',
];

const A2A_CANCELS = 5;

/**
 * A2A's CancelTask (issue 43): a task (a turn) running three 60-second sleeps, sent with
 * `returnImmediately`, then `CancelTask` over JSON-RPC; ms from the request to its answer, which is
 * the task canceled. Each of `A2A_CANCELS` tasks in a session of its own.
 */
async function a2aCancelLags() {
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-api-bench-a2a-'));
  writeFileSync(join(folder, 'script.json'), JSON.stringify(SLEEPS));
  const served = await serve(folder, ['--script', 'script.json']);
  const rpc = async (method, params) => {
    const response = await fetch(`${served.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const answer = await response.json();
    if (answer.error) throw new Error(`${method} failed: ${answer.error.message}`);
    return answer.result;
  };
  try {
    const times = [];
    for (let index = 0; index < A2A_CANCELS; index++) {
      const message = { messageId: `bench-${index}`, role: 'ROLE_USER', parts: [{ text: 'Sleep' }] };
      const { task } = await rpc('SendMessage', { message, configuration: { returnImmediately: true } });
      const started = performance.now();
      const canceled = await rpc('CancelTask', { id: task.id });
      if (canceled.status.state !== 'TASK_STATE_CANCELED')
        throw new Error(`CancelTask answered ${canceled.status.state}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    served.child.kill('SIGINT');
    await new Promise((settle) => served.child.once('exit', settle));
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The kill switch (issue 40): one tenant's `SUSPENDED_TURNS` turns each running three 60-second
 * sleeps, then `agentstep tenants suspend` in another process; ms from its write (the command's
 * exit) until every turn has ended, cancelled, as the API shows it.
 */
async function suspendMs() {
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-api-bench-suspend-'));
  writeFileSync(join(folder, 'script.json'), JSON.stringify(SLEEPS));
  const served = await serve(folder, ['--script', 'script.json', '--auth', 'dev']);
  const call = (path, init = {}) =>
    fetch(`${served.url}${path}`, {
      ...init,
      headers: { authorization: 'Bearer mallory', 'content-type': 'application/json' },
    }).then((response) => response.json());
  const statusOf = async (session) => (await call(`/sessions/${session}`)).status;
  try {
    const sessions = [];
    for (let index = 0; index < SUSPENDED_TURNS; index++)
      sessions.push(
        (await call('/sessions', { method: 'POST', body: JSON.stringify({ message: 'Sleep' }) })).session,
      );
    // Each turn has logged its batch of three calls: its sleeps run.
    for (const session of sessions)
      while (
        (await call(`/sessions/${session}/events`)).events.filter((event) => event.type === 'call').length < 3
      )
        await new Promise((settle) => setTimeout(settle, 20));
    const suspended = spawnSync(process.execPath, [bin, 'tenants', 'suspend', 'mallory'], {
      cwd: folder,
      encoding: 'utf8',
    });
    if (suspended.status !== 0) throw new Error(`tenants suspend failed: ${suspended.stderr}`);
    const started = performance.now();
    for (const session of sessions)
      while ((await statusOf(session)) !== 'idle') await new Promise((settle) => setTimeout(settle, 20));
    return performance.now() - started;
  } finally {
    served.child.kill('SIGINT');
    await new Promise((settle) => served.child.once('exit', settle));
    rmSync(folder, { recursive: true, force: true });
  }
}

const WATCH_MS = 8_000;

/**
 * Runs turns on `sessions` sessions at once for `WATCH_MS`, each new session's turn followed by
 * `perSession` streams (one of them starts the next turn once its own stream is done): the turns
 * finished per second, and each live frame's lag.
 */
async function watchedTurns(url, sessions, perSession) {
  const until = performance.now() + WATCH_MS;
  const lags = [];
  let turns = 0;
  const follow = async (session, connectedAt) => {
    for await (const { event, data, id } of framesOf(await fetch(`${url}/sessions/${session}/stream`))) {
      if (event === 'done') return;
      // The timestamp is taken just before the event's append: the lag includes the append's own
      // write to DynamoDB Local, most of it at 50 busy sessions (decision 0037).
      const storedAt = data && id !== undefined ? JSON.parse(data).timestamp * 1000 : 0;
      if (storedAt >= connectedAt) lags.push(Date.now() - storedAt);
    }
    throw new Error('the stream ended without done');
  };
  const slot = async () => {
    while (performance.now() < until) {
      const response = await fetch(`${url}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      const { session } = await response.json();
      const connectedAt = Date.now();
      // One stream per session parses every frame (the lag); the others only wait for its end, as
      // cheaply as a client can, so the clients (on this machine too) take little of the server's CPU.
      const watchers = Array.from({ length: perSession - 1 }, () => drained(url, session));
      await Promise.all([follow(session, connectedAt), ...watchers]);
      turns += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: sessions }, slot));
  return { perSecond: turns / ((performance.now() - started) / 1000), lags };
}

/** Reads the session's stream until its done frame with plain `node:http`, parsing nothing else. */
function drained(url, session) {
  return new Promise((settle, fail) => {
    const request = get(`${url}/sessions/${session}/stream`, (response) => {
      let tail = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        tail = (tail + chunk).slice(-64);
        if (tail.includes('event: done')) {
          request.destroy();
          settle();
        }
      });
      response.once('end', () => fail(new Error('the stream ended without done')));
    });
    request.once('error', (error) => (request.destroyed ? undefined : fail(error)));
  });
}

/** Many streams and many busy sessions on one server: turns/s as streams multiply, and the lag at 50 sessions. */
async function watcherRows() {
  const folder = mkdtempSync(join(tmpdir(), 'agentstep-api-bench-watchers-'));
  writeFileSync(join(folder, 'script.json'), JSON.stringify(SCRIPT));
  const served = await serve(folder);
  try {
    await watchedTurns(served.url, 2, 2); // warm
    const few = await watchedTurns(served.url, 10, 1);
    const many = await watchedTurns(served.url, 10, 20);
    const busy = await watchedTurns(served.url, 50, 1);
    return { few, many, busy };
  } finally {
    served.child.kill('SIGINT');
    await new Promise((settle) => served.child.once('exit', settle));
    rmSync(folder, { recursive: true, force: true });
  }
}

if (!watchersOnly) await turnRows();
const watchers = await watcherRows();
const ratio = watchers.many.perSecond / watchers.few.perSecond;
console.log(`\nConcurrent sessions and their streams, ${WATCH_MS / 1000} s a run`);
console.log(count('10 sessions x 1 stream (10 streams), turns/s', watchers.few.perSecond));
console.log(count('10 sessions x 20 streams (200 streams), turns/s', watchers.many.perSecond));
console.log(count('turns/s with 200 streams / with 10 streams', ratio, 0.8));
console.log(row('SSE lag with 10 streams, p50', median(watchers.few.lags)));
console.log(row('SSE lag with 200 streams, p50', median(watchers.many.lags)));
console.log(
  row(
    `SSE lag at 50 busy sessions, p50 of ${watchers.busy.lags.length} frames`,
    median(watchers.busy.lags),
    100,
  ),
);
console.log(count('50 sessions x 1 stream, turns/s', watchers.busy.perSecond));

if (!watchersOnly) {
  const interrupts = await interruptLags();
  console.log(`\nifBusy "interrupt" on a turn waiting for approval, ${INTERRUPTS} times`);
  console.log(row('request to the new turn running (cancel + start), p50', median(interrupts), 2000));
  console.log(
    `\nThe kill switch: agentstep tenants suspend with ${SUSPENDED_TURNS} of the tenant's turns running`,
  );
  console.log(row(`suspend written to ${SUSPENDED_TURNS} turns ended, cancelled`, await suspendMs(), 2000));
  console.log(`\nA2A CancelTask on a working task (three 60-second sleeps), ${A2A_CANCELS} times`);
  console.log(row('request to the task answered canceled, p50', median(await a2aCancelLags()), 2000));
  const firstTokens = await firstTokenLags();
  console.log(
    `\nA model streaming 20 chunks ${CHUNK_MS} ms apart, ${FIRST_TOKEN_TURNS} turns in each stream format`,
  );
  console.log(row('first token, model chunk to respond_delta, p50', median(firstTokens.agentstep), 150));
  console.log(row('first token, model chunk to ai-sdk text-delta, p50', median(firstTokens['ai-sdk']), 150));
}
