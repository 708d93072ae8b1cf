import { AgentStepApiError, AgentStepClient, type StreamItem } from '@agentstep/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { approveWaiting, type Served } from '../support/serve-client.js';

/** Every turn: a `sleep` call, then an answer. */
const SCRIPT = [batch(['sleep', { ms: 0, value: 'slept' }]), 'Done.<end>'];

/** Its turns run straight to their end. */
let served: Served;
/** `--approve sleep`: a turn runs until the test decides its call, so the test finds it running. */
let held: Served;

beforeAll(async () => {
  // One after the other: the first synthesizes the loop into the run's cache, the second reads it.
  served = await serveScriptInProcess('client', SCRIPT);
  held = await serveScriptInProcess('client-held', SCRIPT, ['--approve', 'sleep']);
});

afterAll(async () => {
  expect(await Promise.all([served?.stop(), held?.stop()])).toEqual([0, 0]);
});

/** A client acting as `tenant` on the served API (`on`: the server whose turns run through by default). */
function clientOf(tenant: string, options: { on?: Served; fetch?: typeof globalThis.fetch } = {}) {
  const { on = served, fetch } = options;
  return new AgentStepClient({ baseUrl: on.url, token: tenant, ...(fetch ? { fetch } : {}) });
}

async function collect(items: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const all: StreamItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A fetch whose first stream response breaks off after the frame with id `lastId`, as a dropped connection. */
function droppingFetch(lastId: string) {
  const resumedFrom: Array<string | null> = [];
  const dropping: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith('/stream') || response.body === null) return response;
    resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
    return resumedFrom.length === 1 ? new Response(breakOff(response.body, lastId), response) : response;
  };
  return { fetch: dropping, resumedFrom };
}

/** `body` up to the end of its server-sent frame whose id is `id`, then a failed read. */
function breakOff(body: ReadableStream<Uint8Array>, id: string): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = '';
  let sent = 0;
  const transform = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      text += decoder.decode(chunk, { stream: true });
      const cut = endOfFrame(text, id);
      const end = cut ?? text.length;
      controller.enqueue(encoder.encode(text.slice(sent, end)));
      sent = end;
      if (cut !== undefined) controller.error(new TypeError('terminated'));
    },
  });
  return body.pipeThrough(transform);
}

/** Where the whole frame whose id is `id` ends in server-sent `text` (past its blank line), once it has come. */
function endOfFrame(text: string, id: string): number | undefined {
  let start = 0;
  for (const { index } of text.matchAll(/\n\n/g)) {
    if (/^id: ?(.*)$/m.exec(text.slice(start, index))?.[1] === id) return index + 2;
    start = index + 2;
  }
  return undefined;
}

const seqs = (items: StreamItem[]) => items.flatMap((item) => ('seq' in item ? [item.seq] : []));

describe.skipIf(dynamoEndpoint === '')('@agentstep/client on `agentstep serve` (DynamoDB Local)', () => {
  it('start, then stream to done: seq 1…6 without gaps, the same events as events(); get() says idle', async () => {
    const alice = clientOf('alice');
    const { session, turn, status } = await alice.start({ message: 'Hi' });
    expect(status).toBe('running');
    const items = await collect(alice.stream(session));
    const logged = (item: StreamItem) => 'seq' in item || item.type === 'done';
    expect(items.filter(logged).map((item) => item.type)).toEqual([
      'user',
      'turn_start',
      'call',
      'result',
      'respond',
      'turn_end',
      'done',
    ]);
    expect(items.filter((item) => item.type === 'metric')).toHaveLength(2);
    expect(seqs(items)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(items.at(-1)).toEqual({ type: 'done', status: 'done', turn });
    const events = items.flatMap((item) => ('seq' in item ? [item.event] : []));
    expect(await alice.events(session)).toEqual({ events, next: null });
    expect(await alice.get(session)).toEqual({
      session,
      title: 'Hi',
      status: 'idle',
      turns: 1,
      lastSeq: 6,
      lastTurn: { turn, status: 'done' },
      usage: { input: 0, output: 0 },
      queued: [],
      versions: [{ turn, version: expect.stringMatching(/^[0-9a-f]{12}$/) }],
    });
  });

  it('send while a turn runs throws SessionBusy; after done it starts the next turn, streamed from after', async () => {
    const carol = clientOf('carol', { on: held });
    const { session } = await carol.start({ message: 'Hi' });
    const busy = carol.send(session, { message: 'More' });
    await expect(busy).rejects.toBeInstanceOf(AgentStepApiError);
    await expect(busy).rejects.toMatchObject({ status: 409, code: 'SessionBusy' });
    await approveWaiting(held.url, 'carol', session);
    const first = seqs(await collect(carol.stream(session)));
    const next = await carol.send(session, { message: 'More' });
    await approveWaiting(held.url, 'carol', session);
    const after = first.at(-1) ?? 0;
    const items = await collect(carol.stream(session, { after }));
    // The same script again: as many events as the first turn, numbered on from its last.
    expect(seqs(items)).toEqual(first.map((seq) => seq + after));
    expect(items.at(-1)).toEqual({ type: 'done', status: 'done', turn: next.turn });
  });

  it('cancel stops the running turn: its stream ends with done, status cancelled; a second cancel is NoTurnRunning', async () => {
    const erin = clientOf('erin', { on: held });
    const { session, turn } = await erin.start({ message: 'Hi' });
    await erin.cancel(session);
    const items = await collect(erin.stream(session));
    expect(items.at(-1)).toEqual({ type: 'done', status: 'cancelled', turn });
    await expect(erin.cancel(session)).rejects.toMatchObject({ status: 409, code: 'NoTurnRunning' });
  });

  it("another tenant's get, events, send and stream throw SessionNotFound (404)", async () => {
    const { session } = await clientOf('alice').start({ message: 'Hi' });
    const mallory = clientOf('mallory');
    const refusals = await Promise.allSettled([
      mallory.get(session),
      mallory.events(session),
      mallory.send(session, { message: 'x' }),
      collect(mallory.stream(session)),
    ]);
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ status: 'rejected', reason: { status: 404, code: 'SessionNotFound' } });
    await collect(clientOf('alice').stream(session));
  });

  it('a stream whose connection drops after the frame with id 2 reconnects with Last-Event-ID 2: each event once', async () => {
    // Cut after the frame carrying id 2, not after the second frame: a step's metric, which has no
    // id, may come before it.
    const { fetch, resumedFrom } = droppingFetch('2');
    const dave = clientOf('dave', { fetch });
    const { session, turn } = await dave.start({ message: 'Hi' });
    const items = await collect(dave.stream(session, { retryDelayMs: 10 }));
    expect(resumedFrom).toEqual([null, '2']);
    expect(seqs(items)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(items.at(-1)).toEqual({ type: 'done', status: 'done', turn });
    const logged = items.flatMap((item) => ('seq' in item ? [item.event] : []));
    expect((await dave.events(session)).events).toEqual(logged);
  });
});
