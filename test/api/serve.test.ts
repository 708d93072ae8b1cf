import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import {
  type ApiEvent,
  approveWaiting,
  call,
  eventsOnce,
  readStream,
  type Served,
} from '../support/serve-client.js';

/** A turn of two steps, 100 tokens in and 10 out each: a `sleep` call, then an answer. */
const usage = { inputTokens: 100, outputTokens: 10 };
const TURN = [
  { chunks: [batch(['sleep', { ms: 0, value: 'slept' }])], usage },
  { chunks: ['Done.<end>'], usage },
];

/** Its turns run straight to their end. */
let served: Served;
/** `--approve sleep`: a turn waits until the test decides its call, so the test finds it busy. */
let held: Served;
/** Its turns' one call sleeps a minute: the test finds the turn running (no call waits) and cancels it. */
let sleeping: Served;
let url = '';

beforeAll(async () => {
  // One after the other: the first synthesizes the loop into the run's cache, the second reads it.
  served = await serveScriptInProcess('serve', TURN);
  held = await serveScriptInProcess('serve-held', TURN, ['--approve', 'sleep']);
  sleeping = await serveScriptInProcess('serve-sleeping', [batch(['sleep', { ms: 60_000, value: 'late' }])]);
  url = served.url;
});

afterAll(async () => {
  expect(await Promise.all([served?.stop(), held?.stop(), sleeping?.stop()])).toEqual([0, 0, 0]);
});

/** Starts a turn in a new session as `tenant`, on `on` (by default the server whose turns run through); its ids. */
async function start(tenant: string, options: { on?: Served; headers?: Record<string, string> } = {}) {
  const { on = served, headers = {} } = options;
  const { status, body } = await call(`${on.url}/sessions`, tenant, {
    method: 'POST',
    json: { message: 'Hi' },
    headers,
  });
  expect(status).toBe(202);
  return body as { session: string; turn: string; status: string };
}

const isCall = (event: ApiEvent) => event.type === 'call';
const isApprovalRequest = (event: ApiEvent) =>
  event.type === 'approval' && event.payload?.status === 'requested';

describe.skipIf(dynamoEndpoint === '')('the HTTP API on `agentstep serve` (DynamoDB Local)', () => {
  it('a turn started with POST /sessions streams to done: seq 1, 2, 3… as GET /events has them', async () => {
    const { session, turn, status } = await start('alice');
    expect(status).toBe('running');
    const { status: code, frames } = await readStream(`${url}/sessions/${session}/stream`, 'alice');
    expect(code).toBe(200);
    const logged = frames.filter((frame) => frame.id !== undefined);
    expect(logged.map((frame) => Number(frame.id))).toEqual(logged.map((_, index) => index + 1));
    expect(logged.map((frame) => frame.event)).toEqual([
      'user',
      'turn_start',
      'call',
      'result',
      'respond',
      'turn_end',
    ]);
    expect(frames.at(-1)).toMatchObject({ event: 'done', data: JSON.stringify({ status: 'done', turn }) });
    const metrics = frames.filter((frame) => frame.event === 'metric');
    expect(metrics.map((frame) => frame.id)).toEqual([undefined, undefined]);
    expect(metrics.map((frame) => JSON.parse(frame.data).total)).toEqual([
      { input: 100, output: 10 },
      { input: 200, output: 20 },
    ]);
    const types = frames.map((frame) => frame.event);
    expect(types.lastIndexOf('metric')).toBeLessThan(types.indexOf('turn_end'));
    const { body } = await call(`${url}/sessions/${session}/events`, 'alice');
    expect(body).toEqual({ events: logged.map((frame) => JSON.parse(frame.data)), next: null });
  });

  it('a stream dropped after two frames and reopened with Last-Event-ID yields exactly the rest', async () => {
    const { session } = await start('alice');
    const stream = `${url}/sessions/${session}/stream`;
    const first = await readStream(stream, 'alice', { limit: 2 });
    const logged = (frames: typeof first.frames) => frames.filter((frame) => frame.id !== undefined);
    // A client resumes from the last id it saw: a step's metric, which may come second, has none.
    const rest = await readStream(stream, 'alice', { lastEventId: logged(first.frames).at(-1)?.id ?? '' });
    const whole = await readStream(stream, 'alice');
    expect(logged([...first.frames, ...rest.frames])).toEqual(logged(whole.frames));
  });

  it('GET /sessions/{id} says running while its call runs, and waiting while a call waits for a decision', async () => {
    const asleep = await start('alice', { on: sleeping });
    await eventsOnce(sleeping.url, 'alice', asleep.session, (events) => events.some(isCall));
    expect((await call(`${sleeping.url}/sessions/${asleep.session}`, 'alice')).body).toMatchObject({
      session: asleep.session,
      status: 'running',
      turns: 1,
    });
    await call(`${sleeping.url}/sessions/${asleep.session}/cancel`, 'alice', { method: 'POST' });
    await readStream(`${sleeping.url}/sessions/${asleep.session}/stream`, 'alice');

    const waiting = await start('alice', { on: held });
    await eventsOnce(held.url, 'alice', waiting.session, (events) => events.some(isApprovalRequest));
    expect((await call(`${held.url}/sessions/${waiting.session}`, 'alice')).body).toMatchObject({
      session: waiting.session,
      status: 'waiting',
      turns: 1,
    });
    await approveWaiting(held.url, 'alice', waiting.session);
    await readStream(`${held.url}/sessions/${waiting.session}/stream`, 'alice');
  });

  it('GET /sessions/{id} once the turn is done: idle, turns, lastSeq and usage; events page by after and limit', async () => {
    const { session, turn } = await start('alice');
    await readStream(`${url}/sessions/${session}/stream`, 'alice');
    const { body } = await call(`${url}/sessions/${session}`, 'alice');
    expect(body).toEqual({
      session,
      title: 'Hi',
      status: 'idle',
      turns: 1,
      lastSeq: 6,
      lastTurn: { turn, status: 'done' },
      usage: { input: 200, output: 20 },
      queued: [],
      versions: [{ turn, version: expect.stringMatching(/^[0-9a-f]{12}$/) }],
    });
    const page = await call(`${url}/sessions/${session}/events?after=1&limit=2`, 'alice');
    expect(page.body.events.map((event: { seq: number }) => event.seq)).toEqual([2, 3]);
    expect(page.body.next).toBe(3);
  });

  it('409 SessionBusy while a turn runs; the same Idempotency-Key twice starts one turn', async () => {
    const { session } = await start('carol', { on: held });
    const busy = await call(`${held.url}/sessions/${session}/messages`, 'carol', {
      method: 'POST',
      json: { message: 'More' },
    });
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'SessionBusy' } } });
    const key = { 'idempotency-key': `key-${session}` };
    const [once, again] = [
      await start('carol', { on: held, headers: key }),
      await start('carol', { on: held, headers: key }),
    ];
    expect(again).toEqual(once);
    for (const started of [session, once.session]) {
      await approveWaiting(held.url, 'carol', started);
      await readStream(`${held.url}/sessions/${started}/stream`, 'carol');
    }
    expect((await call(`${held.url}/sessions/${once.session}`, 'carol')).body).toMatchObject({ turns: 1 });
  });

  it('another tenant gets 404 for the session on every route, and no credentials get 401', async () => {
    const { session } = await start('alice');
    const routes = [
      call(`${url}/sessions/${session}`, 'mallory'),
      call(`${url}/sessions/${session}/events`, 'mallory'),
      readStream(`${url}/sessions/${session}/stream`, 'mallory'),
      call(`${url}/sessions/${session}/messages`, 'mallory', { method: 'POST', json: { message: 'x' } }),
    ];
    expect((await Promise.all(routes)).map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(await call(`${url}/sessions/${session}`, 'mallory')).toMatchObject({
      body: { error: { code: 'SessionNotFound', message: `Session ${session} was not found.` } },
    });
    expect(await call(`${url}/sessions/${session}`, undefined)).toMatchObject({
      status: 401,
      body: { error: { code: 'Unauthorized' } },
    });
    await readStream(`${url}/sessions/${session}/stream`, 'alice');
  });

  it('400 for invalid JSON and for a body that fails validation, each problem in fields; 413; 415', async () => {
    const post = (body: string, type = 'application/json') =>
      call(`${url}/sessions`, 'dave', { method: 'POST', body, headers: { 'content-type': type } });
    expect(await post('{"message":')).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidJson' } },
    });
    expect(await post(JSON.stringify({ message: '', maxSteps: 0, colour: 'red' }))).toEqual({
      status: 400,
      body: {
        error: {
          code: 'ValidationError',
          message: 'The body does not match what this route takes.',
          fields: [
            { path: 'message', message: 'must not be empty' },
            { path: 'maxSteps', message: 'Too small: expected number to be >=1' },
            { path: 'colour', message: 'is not a field this route takes' },
          ],
        },
      },
    });
    expect(await post(JSON.stringify({ message: 'x'.repeat(300_000) }))).toMatchObject({
      status: 413,
      body: { error: { code: 'PayloadTooLarge' } },
    });
    expect(await post('hello', 'text/plain')).toMatchObject({
      status: 415,
      body: { error: { code: 'UnsupportedMediaType' } },
    });
    const unknown = await call(`${url}/sessions/s-nothing-here`, 'dave');
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'SessionNotFound' } } });
  });
});
