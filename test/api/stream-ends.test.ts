import type { EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { call, readStream, type Served } from '../support/serve-client.js';

/** Every turn: two steps of 100 tokens in and 10 out each, a `sleep` call then an answer. */
const usage = { inputTokens: 100, outputTokens: 10 };
const TURN = [
  { chunks: [batch(['sleep', { ms: 0, value: 'slept' }])], usage },
  { chunks: ['Done.<end>'], usage },
];

let served: Served;
/** A session of two turns that have both ended, its turns and its last seq. */
let finished: { session: string; turns: string[]; lastSeq: number };

const streamOf = (session: string, query = '') => `${served.url}/sessions/${session}/stream${query}`;
const lastSeqOf = (frames: EventSourceMessage[]) => Number(frames.findLast((frame) => frame.id)?.id ?? 0);

beforeAll(async () => {
  served = await serveScriptInProcess('stream-ends', TURN);
  const first = (await call(`${served.url}/sessions`, 'alice', { method: 'POST', json: { message: 'One' } }))
    .body;
  const one = await readStream(streamOf(first.session), 'alice');
  const next = await call(`${served.url}/sessions/${first.session}/messages`, 'alice', {
    method: 'POST',
    json: { message: 'Two' },
  });
  const two = await readStream(streamOf(first.session), 'alice', {
    lastEventId: String(lastSeqOf(one.frames)),
  });
  expect(two.frames.at(-1)?.event).toBe('done');
  finished = {
    session: first.session,
    turns: [first.turn, next.body.turn],
    lastSeq: lastSeqOf(two.frames),
  };
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

describe.skipIf(dynamoEndpoint === '')('a stream at its ends, over HTTP (`agentstep serve`)', () => {
  it.each([
    ['Last-Event-ID at the last seq', '', 0],
    ['Last-Event-ID past it', '', 5],
    ['the AI SDK format', '?format=ai-sdk', 0],
  ])(
    'answers 204 without a body once no turn runs and nothing is after the resume point: %s',
    async (_, query, past) => {
      const { session, lastSeq } = finished;
      const resumed = await readStream(streamOf(session, query), 'alice', {
        lastEventId: String(lastSeq + past),
      });
      expect(resumed).toEqual({ status: 204, frames: [] });
    },
  );

  it('answers 204 to ?after= at the last seq too', async () => {
    const { session, lastSeq } = finished;
    expect(await readStream(streamOf(session, `?after=${lastSeq}`), 'alice')).toEqual({
      status: 204,
      frames: [],
    });
  });

  it("replays each turn's metrics before that turn's turn_end", async () => {
    const { session, turns } = finished;
    const { status, frames } = await readStream(streamOf(session), 'alice');
    expect(status).toBe(200);
    const turnOfBatch = (batch: string) => batch.slice(0, batch.lastIndexOf('.'));
    const order = frames.flatMap(({ event, data }) => {
      if (event === 'metric') return [`metric ${turnOfBatch(JSON.parse(data).payload.batch)}`];
      return event === 'turn_end' ? [`turn_end ${JSON.parse(data).payload.turn}`] : [];
    });
    const [one, two] = turns;
    expect(order).toEqual([
      ...[`metric ${one}`, `metric ${one}`, `turn_end ${one}`],
      ...[`metric ${two}`, `metric ${two}`, `turn_end ${two}`],
    ]);
    expect(frames.at(-1)).toMatchObject({
      event: 'done',
      data: JSON.stringify({ status: 'done', turn: two }),
    });
  });

  it("replays each turn's usage in that turn's message in the AI SDK format", async () => {
    const { frames } = await readStream(streamOf(finished.session, '?format=ai-sdk'), 'alice');
    // Each message's usage metadata, in order: a message begins at its `start`.
    const usages: unknown[][] = [];
    for (const { data } of frames) {
      if (data === '[DONE]') continue;
      const chunk = JSON.parse(data);
      if (chunk.type === 'start') usages.push([]);
      if (chunk.type === 'message-metadata') usages.at(-1)?.push(chunk.messageMetadata.usage);
    }
    expect(usages).toEqual([
      [
        { inputTokens: 100, outputTokens: 10 },
        { inputTokens: 200, outputTokens: 20 },
      ],
      [
        { inputTokens: 300, outputTokens: 30 },
        { inputTokens: 400, outputTokens: 40 },
      ],
    ]);
  });
});
