import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { call, type Served } from '../support/serve-client.js';

let served: Served;

/** A turn that thinks, calls two tools (one fails), then answers. */
const TURN = [
  `<think>Two checks at once.</think>${batch(['echo', { text: 'hello' }], ['fail', { message: 'boom' }])}`,
  'Both ran: one said hello, one failed.<end>',
];

beforeAll(async () => {
  served = await serveScriptInProcess('ai-sdk', TURN);
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

/** The session's stream in the AI SDK's format, read by the `ai` package's own parser into its message. */
async function uiMessageOf(session: string): Promise<{ headers: Headers; message: UIMessage | undefined }> {
  const response = await fetch(`${served.url}/sessions/${session}/stream?format=ai-sdk`, {
    headers: { authorization: 'Bearer frank' },
  });
  if (response.body === null) throw new Error('no body');
  const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: UIMessageChunk; error?: unknown }, UIMessageChunk>({
      transform(parsed, controller) {
        if (!parsed.success || parsed.value === undefined) throw parsed.error;
        controller.enqueue(parsed.value);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream: chunks, terminateOnError: true })) message = state;
  return { headers: response.headers, message };
}

describe.skipIf(dynamoEndpoint === '')('GET /stream?format=ai-sdk: the AI SDK UI message stream', () => {
  it("a turn reads as one assistant message with the `ai` package's own parser: reasoning, tools, text", async () => {
    const { body } = await call(`${served.url}/sessions`, 'frank', {
      method: 'POST',
      json: { message: 'Check' },
    });
    const { headers, message } = await uiMessageOf(body.session);
    expect(headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(message?.role).toBe('assistant');
    expect(message?.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({ type: 'reasoning', text: 'Two checks at once.', state: 'done' }),
      expect.objectContaining({
        type: 'dynamic-tool',
        toolName: 'echo',
        toolCallId: `${body.turn}.1#0`,
        state: 'output-available',
        input: { text: 'hello' },
        output: 'hello',
      }),
      expect.objectContaining({
        type: 'dynamic-tool',
        toolName: 'fail',
        toolCallId: `${body.turn}.1#1`,
        state: 'output-error',
        errorText: 'boom',
      }),
      { type: 'step-start' },
      expect.objectContaining({ type: 'text', text: 'Both ran: one said hello, one failed.', state: 'done' }),
    ]);
    expect(message?.metadata).toEqual({ usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it('an unknown format is a 400 naming it', async () => {
    const { body } = await call(`${served.url}/sessions`, 'frank', {
      method: 'POST',
      json: { message: 'Check' },
    });
    const answer = await call(`${served.url}/sessions/${body.session}/stream?format=rss`, 'frank');
    expect(answer).toMatchObject({
      status: 400,
      body: { error: { code: 'ValidationError', fields: [{ path: '' }] } },
    });
  });
});
