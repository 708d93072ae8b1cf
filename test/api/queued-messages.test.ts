import { AgentStepClient, type StreamItem } from '@agentstep/client';
import { readUntil } from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveScriptOn } from '../support/in-process.js';
import { type ApiEvent, approveWaiting, call, eventsOnce, type Served } from '../support/serve-client.js';

/** Every turn: one echo that waits for approval, then an answer. A turn runs until the test approves it. */
const SCRIPT = [batch(['echo', { text: 'held' }]), 'Done.<end>'];
const project = newProject('queued');
let served: Served;
let url = '';

beforeAll(async () => {
  served = await serveScriptOn(project, 'held', SCRIPT, ['--approve', 'echo']);
  url = served.url;
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

const turnEnds = (count: number) => (events: ApiEvent[]) =>
  events.filter((event) => event.type === 'turn_end').length === count;
const userMessages = (events: ApiEvent[]) =>
  events.filter((event) => event.type === 'user').map((event) => event.content);

/** A new session of `tenant` whose first turn waits for its echo's approval. */
async function heldSession(tenant: string): Promise<string> {
  const { body } = await call(`${url}/sessions`, tenant, { method: 'POST', json: { message: 'First' } });
  await eventsOnce(url, tenant, body.session, (events) => events.some((event) => event.type === 'approval'));
  return String(body.session);
}

const send = (tenant: string, session: string, json: Record<string, unknown>) =>
  call(`${url}/sessions/${session}/messages`, tenant, { method: 'POST', json });

describe.skipIf(dynamoEndpoint === '')('messages that arrive mid-turn (ifBusy) on `agentstep serve`', () => {
  it('enqueues three: each answered with its place, listed, and run in order as three turns, across a restart', async () => {
    const session = await heldSession('quinn');
    const answers = [];
    for (const message of ['Second', 'Third', 'Fourth'])
      answers.push(await send('quinn', session, { message, ifBusy: 'enqueue' }));
    expect(answers.map(({ status, body }) => [status, body.status, body.position])).toEqual([
      [202, 'queued', 1],
      [202, 'queued', 2],
      [202, 'queued', 3],
    ]);
    const summary = (await call(`${url}/sessions/${session}`, 'quinn')).body;
    expect(
      summary.queued.map((queued: { message: string; position: number }) => [
        queued.message,
        queued.position,
      ]),
    ).toEqual([
      ['Second', 1],
      ['Third', 2],
      ['Fourth', 3],
    ]);
    expect(summary.queued[0].turn).toBe(answers[0]?.body.turn);
    // A restart in between: the running turn is cancelled, the queue kept; the next server starts it.
    expect(await served.stop()).toBe(0);
    served = await served.restart();
    url = served.url;
    for (let turn = 2; turn <= 4; turn++) {
      await approveWaiting(url, 'quinn', session);
      await eventsOnce(url, 'quinn', session, turnEnds(turn));
    }
    const events = await eventsOnce(url, 'quinn', session, turnEnds(4));
    expect(userMessages(events)).toEqual(['First', 'Second', 'Third', 'Fourth']);
    const ends = events.filter((event) => event.type === 'turn_end').map((event) => event.payload?.status);
    expect(ends).toEqual(['cancelled', 'done', 'done', 'done']);
    expect((await call(`${url}/sessions/${session}`, 'quinn')).body).toMatchObject({
      status: 'idle',
      queued: [],
    });
  });

  it('interrupts: the running turn ends cancelled and the new one has started by the answer', async () => {
    const session = await heldSession('rory');
    const answer = await send('rory', session, { message: 'Instead', ifBusy: 'interrupt' });
    expect(answer.body).toMatchObject({ session, status: 'running' });
    const events = (await call(`${url}/sessions/${session}/events`, 'rory')).body.events as ApiEvent[];
    const cancelled = events.findIndex((event) => event.type === 'cancelled');
    expect(events.slice(cancelled, cancelled + 3)).toMatchObject([
      { type: 'cancelled' },
      { type: 'turn_end', payload: { status: 'cancelled' } },
      { type: 'user', content: 'Instead' },
    ]);
    await approveWaiting(url, 'rory', session);
    await eventsOnce(url, 'rory', session, turnEnds(2));
  });

  it('withdraws a queued message until it starts; reject stays the default', async () => {
    const session = await heldSession('sage');
    expect((await send('sage', session, { message: 'Not now' })).body.error.code).toBe('SessionBusy');
    const kept = (await send('sage', session, { message: 'Kept', ifBusy: 'enqueue' })).body;
    const dropped = (await send('sage', session, { message: 'Dropped', ifBusy: 'enqueue' })).body;
    const withdraw = (turn: string) =>
      call(`${url}/sessions/${session}/queue/${turn}`, 'sage', { method: 'DELETE' });
    const client = new AgentStepClient({ baseUrl: url, token: 'sage' });
    expect(await client.withdraw(session, dropped.turn)).toEqual({
      session,
      turn: dropped.turn,
      status: 'withdrawn',
    });
    expect((await withdraw(dropped.turn)).body.error.code).toBe('QueuedTurnNotFound');
    expect((await call(`${url}/sessions/${session}`, 'sage')).body.queued).toMatchObject([
      { turn: kept.turn, position: 1 },
    ]);
    await approveWaiting(url, 'sage', session);
    await eventsOnce(url, 'sage', session, (events) => userMessages(events).includes('Kept'));
    expect((await withdraw(kept.turn)).body.error.code).toBe('TurnStarted');
    await approveWaiting(url, 'sage', session);
    const events = await eventsOnce(url, 'sage', session, turnEnds(2));
    expect(userMessages(events)).toEqual(['First', 'Kept']);
    expect((await call(`${url}/sessions/${session}/queue/t-none`, 'tess', { method: 'DELETE' })).status).toBe(
      404,
    );
  });

  it("shows queued messages on the session's stream, then each turn starting, and is done once none waits", async () => {
    const session = await heldSession('uma');
    const items: StreamItem[] = [];
    const shown = (type: string, count: number) => () =>
      items.filter((item) => item.type === type).length >= count;
    let streamed: () => void = () => {};
    const reading = (async () => {
      for await (const item of new AgentStepClient({ baseUrl: url, token: 'uma' }).stream(session)) {
        items.push(item);
        streamed();
      }
    })();
    /** Resolves once `condition` holds of the items streamed so far. */
    const until = (condition: () => boolean) =>
      new Promise<void>((settle) => {
        streamed = () => condition() && settle();
        streamed();
      });
    const second = (await send('uma', session, { message: 'Second', ifBusy: 'enqueue' })).body;
    const third = (await send('uma', session, { message: 'Third', ifBusy: 'enqueue' })).body;
    await until(shown('turn_queued', 2));
    for (let turn = 1; turn <= 3; turn++) {
      await approveWaiting(url, 'uma', session);
      await until(shown('turn_end', turn));
    }
    await reading;
    const queueChanges = items.filter((item) =>
      ['turn_queued', 'turn_started', 'turn_withdrawn'].includes(item.type),
    );
    expect(queueChanges).toEqual([
      { type: 'turn_queued', turn: second.turn, position: 1, message: 'Second' },
      { type: 'turn_queued', turn: third.turn, position: 2, message: 'Third' },
      { type: 'turn_started', turn: second.turn, messageSeq: expect.any(Number) },
      { type: 'turn_started', turn: third.turn, messageSeq: expect.any(Number) },
    ]);
    const events = await eventsOnce(url, 'uma', session, turnEnds(3));
    const seqOf = (content: string) => events.find((event) => event.content === content)?.seq;
    expect(queueChanges.slice(2).map((change) => 'messageSeq' in change && change.messageSeq)).toEqual([
      seqOf('Second'),
      seqOf('Third'),
    ]);
    expect(items.at(-1)).toMatchObject({ type: 'done', status: 'done' });
    expect(items.filter((item) => item.type === 'turn_end')).toHaveLength(3);
    // Each turn's logged `turn_start` follows its `user` event, on the stream as in the log.
    const started = items.flatMap((item) => ('seq' in item && item.type === 'turn_start' ? [item.seq] : []));
    expect(started).toEqual(events.filter((event) => event.type === 'turn_start').map((event) => event.seq));
    expect(started).toEqual([seqOf('First'), seqOf('Second'), seqOf('Third')].map((seq) => Number(seq) + 1));
  });

  it('queues a chat message: POST /chat streams its turn once the running one has ended', async () => {
    const session = 'vic-chat';
    const chat = (id: string, text: string, extra: Record<string, unknown> = {}) =>
      fetch(`${url}/chat`, {
        method: 'POST',
        headers: { authorization: 'Bearer vic', 'content-type': 'application/json' },
        body: JSON.stringify({
          id: session,
          messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }],
          trigger: 'submit-message',
          ...extra,
        }),
      });
    // The first turn's stream ends once its call waits for approval.
    await (await chat('m-1', 'First')).text();
    const answer = chat('m-2', 'Second', { ifBusy: 'enqueue' });
    const queued = await readUntil(
      async () => (await call(`${url}/sessions/${session}`, 'vic')).body.queued as Array<{ turn: string }>,
      (found) => found.length === 1,
    );
    await approveWaiting(url, 'vic', session);
    const streamed = await (await answer).text();
    expect(streamed).toContain(`"messageId":"${queued[0]?.turn}"`);
    expect(streamed.match(/"type":"tool-approval-request"/g)).toHaveLength(1);
    const events = await eventsOnce(url, 'vic', session, (logged) => userMessages(logged).length === 2);
    expect(userMessages(events)).toEqual(['First', 'Second']);
  });
});
