import { describe, expect, it } from 'vitest';
import { AgentStepApiError, StreamDroppedError } from './errors.js';
import { followStream, type OpenStream } from './follow-stream.js';
import type { StreamItem } from './stream-item.js';

const event = (seq: number, type = 'call') => ({ seq, type, content: `event ${seq}`, timestamp: 1 });
const logged = (seq: number, type = 'call') =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(event(seq, type))}\n\n`;
const metric = {
  type: 'metric',
  step: { input: 3, output: 2 },
  total: { input: 3, output: 2 },
  timestamp: 1,
};
const DONE = `event: done\ndata: ${JSON.stringify({ status: 'done', turn: 't-1' })}\n\n`;
const doneItem = { type: 'done', status: 'done', turn: 't-1' };

/** A stream response that sends `parts` one read at a time, then ends, or fails with `drop`. */
function answer(parts: string[], drop?: Error): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const part = parts.shift();
        if (part !== undefined) controller.enqueue(encoder.encode(part));
        else if (drop) controller.error(drop);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** An `OpenStream` that plays `connections` in order and records where each resumed. */
function server(...connections: Array<() => Response>) {
  const resumedAfter: Array<number | undefined> = [];
  const signals: AbortSignal[] = [];
  const open: OpenStream = async (lastSeq, signal) => {
    resumedAfter.push(lastSeq);
    signals.push(signal);
    const next = connections.shift();
    if (next === undefined) throw new TypeError('fetch failed');
    return next();
  };
  return { open, resumedAfter, signals };
}

async function collect(items: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const all: StreamItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const fast = { retryDelayMs: 0 };

describe('followStream', () => {
  it('reconnects after the last seq when a connection drops mid-frame: each event once, then done', async () => {
    const { open, resumedAfter } = server(
      () => answer([logged(1, 'user'), logged(2), logged(3).slice(0, 25)], new TypeError('terminated')),
      () => answer([logged(3, 'result'), logged(4, 'turn_end'), DONE]),
    );
    const items = await collect(followStream('s', open, fast));
    expect(items).toEqual([
      { type: 'user', seq: 1, event: event(1, 'user') },
      { type: 'call', seq: 2, event: event(2) },
      { type: 'result', seq: 3, event: event(3, 'result') },
      { type: 'turn_end', seq: 4, event: event(4, 'turn_end') },
      doneItem,
    ]);
    expect(resumedAfter).toEqual([undefined, 2]);
  });

  it('yields transient events without a seq, and resumes after the last logged one', async () => {
    const { open, resumedAfter } = server(
      () => answer([logged(1), `event: metric\ndata: ${JSON.stringify(metric)}\n\n`]),
      () => answer([DONE]),
    );
    expect(await collect(followStream('s', open, fast))).toEqual([
      { type: 'call', seq: 1, event: event(1) },
      { type: 'metric', event: metric },
      doneItem,
    ]);
    expect(resumedAfter).toEqual([undefined, 1]);
  });

  it("yields a step's text as the model writes it, without a seq, before the step's stored event", async () => {
    const delta = (text: string) =>
      `event: respond_delta\ndata: ${JSON.stringify({ type: 'respond_delta', step: 0, text })}\n\n`;
    const { open } = server(() => answer([delta('Hel'), delta('lo'), logged(1, 'respond'), DONE]));
    expect(await collect(followStream('s', open, fast))).toEqual([
      { type: 'respond_delta', step: 0, text: 'Hel' },
      { type: 'respond_delta', step: 0, text: 'lo' },
      { type: 'respond', seq: 1, event: event(1, 'respond') },
      doneItem,
    ]);
  });

  it("yields a call's outcome sent while its batch waits as it is, without a seq, before the batch's result", async () => {
    const outcome = {
      type: 'call_outcome',
      batch: 't-1.1',
      position: 1,
      tool: 'sleep',
      status: 'success',
      content: 'slept',
      ms: 4,
    };
    const { open, resumedAfter } = server(
      () => answer([logged(1), `event: call_outcome\ndata: ${JSON.stringify(outcome)}\n\n`]),
      () => answer([logged(2, 'result'), DONE]),
    );
    expect(await collect(followStream('s', open, fast))).toEqual([
      { type: 'call', seq: 1, event: event(1) },
      outcome,
      { type: 'result', seq: 2, event: event(2, 'result') },
      doneItem,
    ]);
    expect(resumedAfter).toEqual([undefined, 1]);
  });

  it('an `event: error` frame (the store was unavailable) is a drop: it is not yielded, and the stream resumes', async () => {
    const unavailable = { error: { code: 'StoreUnavailable', message: 'The store is unavailable.' } };
    const { open, resumedAfter } = server(
      () => answer([logged(1, 'user'), `event: error\ndata: ${JSON.stringify(unavailable)}\n\n`, logged(9)]),
      () => answer([logged(2, 'turn_end'), DONE]),
    );
    expect(await collect(followStream('s', open, fast))).toEqual([
      { type: 'user', seq: 1, event: event(1, 'user') },
      { type: 'turn_end', seq: 2, event: event(2, 'turn_end') },
      doneItem,
    ]);
    expect(resumedAfter).toEqual([undefined, 1]);
  });

  it('gives up after the retries when every connection ends with an error frame, naming its cause', async () => {
    const failed = `event: error\ndata: ${JSON.stringify({ error: { code: 'StoreUnavailable', message: 'gone' } })}\n\n`;
    const { open, resumedAfter } = server(
      () => answer([failed]),
      () => answer([failed]),
    );
    const error = await collect(followStream('s', open, { ...fast, retries: 1 })).catch((failure) => failure);
    expect(error).toBeInstanceOf(StreamDroppedError);
    expect(error.cause).toMatchObject({ status: 503, code: 'StoreUnavailable', message: 'gone' });
    expect(resumedAfter).toEqual([undefined, undefined]);
  });

  it('starts after the given seq', async () => {
    const { open, resumedAfter } = server(() => answer([logged(8), DONE]));
    expect(await collect(followStream('s', open, { after: 7 }))).toHaveLength(2);
    expect(resumedAfter).toEqual([7]);
  });

  it('ends without done when a reconnection answers 204: nothing after its seq, no turn runs', async () => {
    const { open, resumedAfter } = server(
      () => answer([logged(1, 'turn_end')], new TypeError('terminated')),
      () => new Response(null, { status: 204 }),
    );
    expect(await collect(followStream('s', open, fast))).toEqual([
      { type: 'turn_end', seq: 1, event: event(1, 'turn_end') },
    ]);
    expect(resumedAfter).toEqual([undefined, 1]);
  });

  it('gives up once `retries` reconnections in a row drop without an event, saying where to resume', async () => {
    const { open, resumedAfter } = server(() => answer([': keep-alive\n\n', logged(1)]));
    const failure = collect(followStream('s-1', open, { ...fast, retries: 2 }));
    await expect(failure).rejects.toBeInstanceOf(StreamDroppedError);
    await expect(failure).rejects.toMatchObject({
      lastSeq: 1,
      message:
        "The stream of session s-1 gave up after 3 dropped connections in a row (last: fetch failed); resume it with stream('s-1', { after: 1 }).",
    });
    expect(resumedAfter).toEqual([undefined, 1, 1]);
  });

  it('reconnects after a 5xx, and throws a 4xx at once', async () => {
    const unavailable = new AgentStepApiError(503, 'UnexpectedResponse', 'HTTP 503');
    const retried = server(
      () => {
        throw unavailable;
      },
      () => answer([DONE]),
    );
    expect(await collect(followStream('s', retried.open, fast))).toEqual([doneItem]);
    const notFound = new AgentStepApiError(404, 'SessionNotFound', 'Session s was not found.');
    const refused = server(() => {
      throw notFound;
    });
    await expect(collect(followStream('s', refused.open, fast))).rejects.toBe(notFound);
    expect(refused.resumedAfter).toHaveLength(1);
  });

  it("throws the caller's abort reason, also while it waits to reconnect", async () => {
    const caller = new AbortController();
    const { open } = server(() => answer([]));
    const stopped = collect(followStream('s', open, { signal: caller.signal, retryDelayMs: 60_000 }));
    setTimeout(() => caller.abort(new Error('stopped by the caller')), 10);
    await expect(stopped).rejects.toThrow('stopped by the caller');
  });

  it('closes the connection when the caller leaves the loop early', async () => {
    const { open, signals } = server(() => answer([logged(1), logged(2), DONE]));
    for await (const item of followStream('s', open)) {
      expect(item).toMatchObject({ seq: 1 });
      break;
    }
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });
});
