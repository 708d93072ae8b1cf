import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { type ApiEvent, call, eventsOnce, readStream, type Served } from '../support/serve-client.js';

/** Every turn: two echoes in one batch, then an answer. */
const SCRIPT = [batch(['echo', { text: 'a' }], ['echo', { text: 'b' }]), 'Done.<end>'];

let served: Served;
let url = '';

beforeAll(async () => {
  served = await serveScriptInProcess('fork', SCRIPT);
  url = served.url;
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

const ended = (turns: number) => (events: ApiEvent[]) =>
  events.filter((event) => event.type === 'turn_end').length === turns;

/** A session of `tenant` whose one turn has ended: user 1, turn_start 2, call 3, call 4, result 5,
 * respond 6, turn_end 7. */
async function finishedSession(tenant: string) {
  const { body } = await call(`${url}/sessions`, tenant, { method: 'POST', json: { message: 'Echo twice' } });
  const events = await eventsOnce(url, tenant, body.session, ended(1));
  expect(events.map((event) => event.type)).toEqual([
    'user',
    'turn_start',
    'call',
    'call',
    'result',
    'respond',
    'turn_end',
  ]);
  return { session: String(body.session), events };
}

const fork = (tenant: string, session: string, json: unknown, headers: Record<string, string> = {}) =>
  call(`${url}/sessions/${session}/fork`, tenant, { method: 'POST', json, headers });

describe.skipIf(dynamoEndpoint === '')('POST /sessions/{id}/fork on `agentstep serve`', () => {
  it("forks at a batch's results: the same events, idle and listed; its next message goes on from there", async () => {
    const { session, events } = await finishedSession('fay');
    const forked = await fork('fay', session, { at: 5 });
    expect(forked.status).toBe(201);
    const branch = String(forked.body.session);
    expect(forked.body).toEqual({ session: branch, forkedFrom: { session, seq: 5 } });
    expect((await call(`${url}/sessions/${branch}/events`, 'fay')).body.events).toEqual(events.slice(0, 5));
    expect((await call(`${url}/sessions/${branch}`, 'fay')).body).toMatchObject({
      status: 'idle',
      lastSeq: 5,
      lastTurn: null,
      forkedFrom: { session, seq: 5 },
    });
    // The turn cut at its results counts as ended: the stream replays the shared events and is done.
    const { frames } = await readStream(`${url}/sessions/${branch}/stream`, 'fay');
    expect(frames.map((frame) => frame.event ?? 'message').filter((name) => name !== 'metric')).toEqual([
      'user',
      'turn_start',
      'call',
      'call',
      'result',
      'done',
    ]);
    const listed = (await call(`${url}/sessions`, 'fay')).body.sessions as Array<{ session: string }>;
    expect(listed.map((item) => item.session)).toContain(branch);
    const next = await call(`${url}/sessions/${branch}/messages`, 'fay', {
      method: 'POST',
      json: { message: 'Again' },
    });
    expect(next.status).toBe(202);
    const grown = await eventsOnce(url, 'fay', branch, ended(1));
    expect(grown.slice(0, 5)).toEqual(events.slice(0, 5));
    expect(grown[5]).toMatchObject({ seq: 6, type: 'user', content: 'Again' });
    expect(grown[6]).toMatchObject({ seq: 7, type: 'turn_start' });
    expect(grown.at(-1)).toMatchObject({ seq: 12, type: 'turn_end', payload: { status: 'done' } });
    expect((await call(`${url}/sessions/${session}/events`, 'fay')).body.events).toEqual(events);
    // As UI messages: the cut turn under its own id, then the fork's turn under another.
    const messages = (await call(`${url}/chat/${branch}/messages`, 'fay')).body as Array<{
      id: string;
      role: string;
    }>;
    const assistants = messages
      .filter((message) => message.role === 'assistant')
      .map((message) => message.id);
    expect(assistants).toHaveLength(2);
    expect(new Set(assistants).size).toBe(2);
  });

  it('answers 400 naming the nearest allowed seqs for a point inside a step or past the end', async () => {
    const { session } = await finishedSession('gus');
    const inside = await fork('gus', session, { at: 3 });
    expect(inside.status).toBe(400);
    expect(inside.body.error).toMatchObject({
      code: 'InvalidForkPoint',
      message: expect.stringContaining('the nearest are seqs 5'),
      fields: [{ path: 'at', message: 'nearest allowed: 5' }],
    });
    const between = await fork('gus', session, { at: 6 });
    expect(between.body.error.fields).toEqual([{ path: 'at', message: 'nearest allowed: 5 and 7' }]);
    expect((await fork('gus', session, { at: 99 })).body.error.fields).toEqual([
      { path: 'at', message: 'nearest allowed: 7' },
    ]);
    expect((await fork('gus', session, { at: 0 })).body.error.code).toBe('ValidationError');
    const tooLong = await fork('gus', session, { at: 5, session: 'x'.repeat(101) });
    expect(tooLong.body.error).toMatchObject({ code: 'ValidationError', fields: [{ path: 'session' }] });
  });

  it('forks a fork; the new id may be chosen, once; a retried request forks once; another tenant cannot fork', async () => {
    const { session } = await finishedSession('hal');
    const first = await fork('hal', session, { at: 7, session: 'hal-branch' });
    expect(first.body).toEqual({ session: 'hal-branch', forkedFrom: { session, seq: 7 } });
    expect((await fork('hal', session, { at: 5, session: 'hal-branch' })).body.error.code).toBe(
      'SessionExists',
    );
    const twig = await fork('hal', 'hal-branch', { at: 5 });
    expect(twig.status).toBe(201);
    const twigEvents = (await call(`${url}/sessions/${twig.body.session}/events`, 'hal')).body.events;
    expect(twigEvents.map((event: ApiEvent) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    const keyed = { 'idempotency-key': 'fork-once' };
    const retried = [
      await fork('hal', session, { at: 7 }, keyed),
      await fork('hal', session, { at: 7 }, keyed),
    ];
    expect(retried.map((answer) => answer.status)).toEqual([201, 201]);
    expect(retried[1]?.body).toEqual(retried[0]?.body);
    const stranger = await fork('ivy', session, { at: 7 });
    expect(stranger).toMatchObject({ status: 404, body: { error: { code: 'SessionNotFound' } } });
  });

  it('answers a repeated fork 201 while the fork is untouched, 409 once it has had a turn, and a retry with the first Idempotency-Key as first answered', async () => {
    const { session } = await finishedSession('kit');
    const first = await fork('kit', session, { at: 7, session: 'kit-branch' });
    expect(first.status).toBe(201);
    expect(await fork('kit', session, { at: 7, session: 'kit-branch' })).toMatchObject({
      status: 201,
      body: first.body,
    });
    const keyed = { 'idempotency-key': 'kit-fork' };
    const derived = await fork('kit', session, { at: 7 }, keyed);
    const named = await fork('kit', session, { at: 7, session: 'kit-named' }, keyed);
    expect([derived.status, named.status]).toEqual([201, 201]);
    const forks = ['kit-branch', String(derived.body.session), 'kit-named'];
    for (const branch of forks) {
      const sent = await call(`${url}/sessions/${branch}/messages`, 'kit', {
        method: 'POST',
        json: { message: 'Again' },
      });
      expect(sent.status).toBe(202);
      await eventsOnce(url, 'kit', branch, ended(2));
    }
    const refused = await fork('kit', session, { at: 7, session: 'kit-branch' });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: { code: 'SessionExists', message: expect.stringContaining('kit-branch already exists') },
      },
    });
    expect((await fork('kit', session, { at: 7, session: 'kit-named' })).status).toBe(409);
    expect(await fork('kit', session, { at: 7 }, keyed)).toMatchObject({ status: 201, body: derived.body });
    expect(await fork('kit', session, { at: 7, session: 'kit-named' }, keyed)).toMatchObject({
      status: 201,
      body: named.body,
    });
    // Refused or retried, no fork lost its own turn.
    for (const branch of forks) {
      const events = (await call(`${url}/sessions/${branch}/events`, 'kit')).body.events as ApiEvent[];
      expect(events.filter((event) => event.type === 'turn_end')).toHaveLength(2);
    }
  });
});
