import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { SLEEPING_TURN } from '../support/harness.js';
import { newProject, serveScriptOn } from '../support/in-process.js';
import { call, eventsOnce, readStream, type Served } from '../support/serve-client.js';

/** A turn that answers at once. */
const ANSWER = ['Done.<end>'];

const project = newProject('cancel');
let served: Served;
let url = '';

beforeAll(async () => {
  served = await serveScriptOn(project, 'sleeps', SLEEPING_TURN);
  url = served.url;
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

const countOf = (type: string) => (events: Array<Record<string, unknown>>) =>
  events.filter((event) => event.type === type).length;

describe.skipIf(dynamoEndpoint === '')('cancelling a turn over the HTTP API (`agentstep serve`)', () => {
  it('during a batch of three 60-second sleeps: cancelled before they end, one result of three failures, and the session goes on', async () => {
    const { body: started } = await call(`${url}/sessions`, 'erin', {
      method: 'POST',
      json: { message: 'Go' },
    });
    const { session, turn } = started;
    await eventsOnce(url, 'erin', session, (events) => countOf('call')(events) === 3);
    const cancelled = await call(`${url}/sessions/${session}/cancel`, 'erin', { method: 'POST' });
    expect(cancelled).toEqual({ status: 202, body: { session, turn, status: 'cancelled' } });
    const events = await eventsOnce(url, 'erin', session, (logged) => countOf('turn_end')(logged) === 1);
    expect(events.map((event) => event.type)).toEqual([
      'user',
      'turn_start',
      'call',
      'call',
      'call',
      'result',
      'cancelled',
      'turn_end',
    ]);
    const ofType = (type: string) => events.find((event) => event.type === type);
    expect(ofType('turn_start')).toMatchObject({ payload: { turn } });
    // Failures, not the sleeps' values: the batch was closed before any sleep could end.
    expect(JSON.parse(String(ofType('result')?.content))).toEqual(
      [1, 2, 3].map(() => ({
        tool: 'sleep',
        status: 'failure',
        content: 'The turn was cancelled before this call finished.',
      })),
    );
    expect(ofType('cancelled')).toMatchObject({ content: 'Cancelled by the user.' });
    expect(ofType('turn_end')).toMatchObject({ payload: { turn, status: 'cancelled' } });
    // The stream shows the `cancelled` event as it shows every logged event.
    const { frames: logged } = await readStream(`${url}/sessions/${session}/stream`, 'erin');
    expect(logged.flatMap((frame) => (frame.id === undefined ? [] : [`${frame.id} ${frame.event}`]))).toEqual(
      ['1 user', '2 turn_start', '3 call', '4 call', '5 call', '6 result', '7 cancelled', '8 turn_end'],
    );
    // The session's next turn runs to its end: a second server on the same store answers at once,
    // where this one would sleep again.
    const answering = await serveScriptOn(project, 'answer', ANSWER);
    try {
      const next = await call(`${answering.url}/sessions/${session}/messages`, 'erin', {
        method: 'POST',
        json: { message: 'Again' },
      });
      expect(next.status).toBe(202);
      const stream = `${answering.url}/sessions/${session}/stream`;
      const { frames } = await readStream(stream, 'erin', { lastEventId: '8' });
      expect(frames.at(-1)).toMatchObject({
        event: 'done',
        data: JSON.stringify({ status: 'done', turn: next.body.turn }),
      });
    } finally {
      expect(await answering.stop()).toBe(0);
    }
  });

  it('409 NoTurnRunning for a session with no turn running; another tenant gets 404', async () => {
    const { body } = await call(`${url}/sessions`, 'erin', { method: 'POST', json: { message: 'Go' } });
    expect((await call(`${url}/sessions/${body.session}/cancel`, 'mallory', { method: 'POST' })).status).toBe(
      404,
    );
    expect((await call(`${url}/sessions/${body.session}/cancel`, 'erin', { method: 'POST' })).status).toBe(
      202,
    );
    expect(await call(`${url}/sessions/${body.session}/cancel`, 'erin', { method: 'POST' })).toMatchObject({
      status: 409,
      body: { error: { code: 'NoTurnRunning' } },
    });
  });

  // In-process, `stop()` takes the path Ctrl-C takes (the serve command's stop request); test/cli/
  // proves the binary turns SIGINT into it.
  it('a stop request (Ctrl-C) stops serve cleanly: exit 0, and a turn it was running ends cancelled, its session free', async () => {
    const { body } = await call(`${url}/sessions`, 'erin', { method: 'POST', json: { message: 'Go' } });
    await eventsOnce(url, 'erin', body.session, (events) => countOf('call')(events) === 3);
    expect(await served.stop()).toBe(0);
    served = await served.restart();
    url = served.url;
    const events = await eventsOnce(url, 'erin', body.session, () => true);
    expect(events.at(-1)).toMatchObject({
      type: 'turn_end',
      payload: { turn: body.turn, status: 'cancelled' },
    });
    expect((await call(`${url}/sessions/${body.session}`, 'erin')).body).toMatchObject({ status: 'idle' });
  });
});
