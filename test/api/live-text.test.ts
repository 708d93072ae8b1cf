import { openAIStream, type RecordingServer, startRecordingServer } from '@agentstep/runtime/testing';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { newProject, serveInProcess } from '../support/in-process.js';
import { call, type Served } from '../support/serve-client.js';

/** The model's answer, in 20 chunks: the last one holds its end marker. */
const CHUNKS = Array.from({ length: 20 }, (_, index) =>
  index < 19 ? `word${index} ` : `word${index}.<end>`,
);
const ANSWER = CHUNKS.join('').replace('<end>', '').trim();

/** A settle-once signal the model server waits on. */
function signal(): { given: Promise<void>; give: () => void } {
  let give = () => {};
  const given = new Promise<void>((settle) => {
    give = settle;
  });
  return { given, give };
}

const streamsOpen = signal();
const deltasSeen = signal();
let model: RecordingServer;
let served: Served;

beforeAll(async () => {
  // An OpenAI-compatible server that starts its answer once both streams are open and holds its
  // last chunk until both have shown text: what reaches them first streamed, by construction.
  model = await startRecordingServer((response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const frames = openAIStream(CHUNKS).split(/(?<=\n\n)/);
    void (async () => {
      await streamsOpen.given;
      for (const [index, frame] of frames.entries()) {
        if (index === CHUNKS.length) await deltasSeen.given;
        response.write(frame);
      }
      response.end();
    })();
  });
  served = await serveInProcess(newProject('live-text'), [
    ...['--auth', 'dev', '--model', 'openai:m', '--base-url', model.url],
  ]);
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
  await model?.close();
});

/** A stream's frames as they arrive, and a wait for a condition on them. */
interface Followed {
  frames: EventSourceMessage[];
  /** Settles once `holds` is true of the frames so far. */
  reached(holds: (frames: EventSourceMessage[]) => boolean): Promise<void>;
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
}

function follow(url: string): Followed {
  const frames: EventSourceMessage[] = [];
  const waits: Array<{ holds: (frames: EventSourceMessage[]) => boolean; settle: () => void }> = [];
  const check = () => {
    for (const wait of [...waits])
      if (wait.holds(frames)) {
        waits.splice(waits.indexOf(wait), 1);
        wait.settle();
      }
  };
  const parser = createParser({
    onEvent: (frame) => {
      frames.push(frame);
      check();
    },
  });
  const ended = (async () => {
    const response = await fetch(url, { headers: { authorization: 'Bearer lena' } });
    if (response.body === null) throw new Error(`no body: ${response.status}`);
    const decoder = new TextDecoder();
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  })();
  const reached = (holds: (frames: EventSourceMessage[]) => boolean) =>
    new Promise<void>((settle) => {
      waits.push({ holds, settle });
      check();
    });
  return { frames, reached, ended };
}

const chunkOf = (frame: EventSourceMessage): UIMessageChunk => JSON.parse(frame.data);
const isTextDelta = (frame: EventSourceMessage) => frame.data.includes('"type":"text-delta"');
const count = (frames: EventSourceMessage[], holds: (frame: EventSourceMessage) => boolean) =>
  frames.filter(holds).length;

/** The message the `ai` package's own reader makes of AI SDK frames. */
async function messageOf(frames: EventSourceMessage[]): Promise<UIMessage | undefined> {
  const chunks = frames.filter((frame) => frame.data !== '[DONE]').map(chunkOf);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream, terminateOnError: true })) message = state;
  return message;
}

describe.skipIf(dynamoEndpoint === '')('GET /stream: a model step’s text as the model writes it', () => {
  it('reaches both formats as deltas before the stored respond, without markup, each piece once', async () => {
    const { body } = await call(`${served.url}/sessions`, 'lena', {
      method: 'POST',
      json: { message: 'Count' },
    });
    const stream = `${served.url}/sessions/${body.session}/stream`;
    const own = follow(stream);
    const aiSdk = follow(`${stream}?format=ai-sdk`);
    await Promise.all([
      own.reached((frames) => frames.some((frame) => frame.event === 'user')),
      aiSdk.reached((frames) => frames.some((frame) => frame.data === '{"type":"start"}')),
    ]);
    streamsOpen.give();
    await Promise.all([
      own.reached((frames) => count(frames, (frame) => frame.event === 'respond_delta') >= 10),
      aiSdk.reached((frames) => count(frames, isTextDelta) >= 10),
    ]);
    deltasSeen.give();
    await Promise.all([own.ended, aiSdk.ended]);

    const stored = own.frames.findIndex((frame) => frame.event === 'respond');
    const deltas = own.frames.filter((frame) => frame.event === 'respond_delta');
    expect(count(own.frames.slice(0, stored), (frame) => frame.event === 'respond_delta')).toBe(
      deltas.length,
    );
    expect(deltas.length).toBeGreaterThanOrEqual(10);
    expect(deltas.every((frame) => frame.id === undefined)).toBe(true);
    expect(deltas.map((frame) => JSON.parse(frame.data).text).join('')).toBe(ANSWER);
    expect(JSON.parse(deltas[0]?.data ?? '{}')).toEqual({ type: 'respond_delta', step: 0, text: 'word0' });
    expect(JSON.parse(own.frames[stored]?.data ?? '{}')).toMatchObject({ type: 'respond', content: ANSWER });

    const textEnd = aiSdk.frames.findIndex((frame) => frame.data.includes('"type":"text-end"'));
    expect(aiSdk.frames[textEnd]?.id).toBe(own.frames[stored]?.id);
    expect(count(aiSdk.frames.slice(0, textEnd), isTextDelta)).toBeGreaterThanOrEqual(10);
    expect(count(aiSdk.frames, isTextDelta)).toBe(count(aiSdk.frames.slice(0, textEnd), isTextDelta));
    const message = await messageOf(aiSdk.frames);
    expect(message?.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: ANSWER, state: 'done' }),
    ]);
  });
});
