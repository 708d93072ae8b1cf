import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACTION_SUMMARY, compactingLog } from '../support/compacting-log.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveScriptInProcess, serveScriptOn } from '../support/in-process.js';
import { call, eventsOnce, type Served } from '../support/serve-client.js';

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
function uiMessageOf(session: string): Promise<{ headers: Headers; message: UIMessage | undefined }> {
  return uiMessageOfServed(served, session);
}

/** The same, from the server `on`, with every chunk the parser read. */
async function uiMessageOfServed(
  on: Served,
  session: string,
): Promise<{ headers: Headers; message: UIMessage | undefined; chunks: UIMessageChunk[] }> {
  const response = await fetch(`${on.url}/sessions/${session}/stream?format=ai-sdk`, {
    headers: { authorization: 'Bearer frank' },
  });
  if (response.body === null) throw new Error('no body');
  const read: UIMessageChunk[] = [];
  const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: UIMessageChunk; error?: unknown }, UIMessageChunk>({
      transform(parsed, controller) {
        if (!parsed.success || parsed.value === undefined) throw parsed.error;
        read.push(parsed.value);
        controller.enqueue(parsed.value);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream: chunks, terminateOnError: true })) message = state;
  return { headers: response.headers, message, chunks: read };
}

/** The parts of the assistant message of {@link TURN} as turn `turn` played it. */
function turnParts(turn: string) {
  return [
    { type: 'step-start' },
    expect.objectContaining({ type: 'reasoning', text: 'Two checks at once.', state: 'done' }),
    expect.objectContaining({
      type: 'dynamic-tool',
      toolName: 'echo',
      toolCallId: `${turn}.1#0`,
      state: 'output-available',
      input: { text: 'hello' },
      output: 'hello',
    }),
    expect.objectContaining({
      type: 'dynamic-tool',
      toolName: 'fail',
      toolCallId: `${turn}.1#1`,
      state: 'output-error',
      errorText: 'boom',
    }),
    { type: 'step-start' },
    expect.objectContaining({ type: 'text', text: 'Both ran: one said hello, one failed.', state: 'done' }),
  ];
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
    expect(message?.parts).toEqual(turnParts(body.turn));
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

describe.skipIf(dynamoEndpoint === '')("approvals in the AI SDK format: the SDK's own approval parts", () => {
  let approving: Served;
  beforeAll(async () => {
    approving = await serveScriptInProcess(
      'ai-sdk-approvals',
      [batch(['echo', { text: 'one' }], ['echo', { text: 'two' }]), 'One ran.<end>'],
      ['--approve', 'echo'],
    );
  });
  afterAll(async () => {
    expect(await approving?.stop()).toBe(0);
  });

  it('an approved call ends with its output, a denied one denied (not failed), as the `ai` package reads them', async () => {
    const { body } = await call(`${approving.url}/sessions`, 'frank', {
      method: 'POST',
      json: { message: 'Echo both' },
    });
    const approvals = (events: Array<{ type: string }>) => events.filter(({ type }) => type === 'approval');
    await eventsOnce(approving.url, 'frank', body.session, (events) => approvals(events).length === 2);
    const decide = (position: number, json: unknown) =>
      call(`${approving.url}/sessions/${body.session}/approvals/${body.turn}.1.${position}`, 'frank', {
        method: 'POST',
        json,
      });
    await decide(0, { decision: 'approve' });
    await decide(1, { decision: 'deny', reason: 'not that one' });
    await eventsOnce(approving.url, 'frank', body.session, (events) =>
      events.some(({ type }) => type === 'turn_end'),
    );
    const { message } = await uiMessageOfServed(approving, body.session);
    const tools = message?.parts.filter((part) => part.type === 'dynamic-tool');
    expect(tools).toEqual([
      expect.objectContaining({
        state: 'output-available',
        output: 'one',
        approval: { id: `${body.turn}.1.0`, approved: true },
      }),
      expect.objectContaining({
        state: 'output-denied',
        approval: { id: `${body.turn}.1.1`, approved: false, reason: 'not that one' },
      }),
    ]);
    // Denied, not failed as well: no error text, though the batch's result holds the denial as a failure.
    expect(JSON.parse(JSON.stringify(tools?.[1]))).not.toHaveProperty('errorText');
  });
});

describe.skipIf(dynamoEndpoint === '')(
  'a turn whose context was compacted between its steps, in the AI SDK format',
  () => {
    let compacting: Served;
    beforeAll(async () => {
      const project = { ...newProject('ai-sdk-compacted'), decorateLog: compactingLog };
      compacting = await serveScriptOn(project, 'ai-sdk-compacted', TURN);
    });
    afterAll(async () => {
      expect(await compacting?.stop()).toBe(0);
    });

    it("reads as the same message with the `ai` package's own parser, the compaction a transient data part", async () => {
      const { body } = await call(`${compacting.url}/sessions`, 'frank', {
        method: 'POST',
        json: { message: 'Check' },
      });
      const { message, chunks } = await uiMessageOfServed(compacting, body.session);
      expect(message?.parts).toEqual(turnParts(body.turn));
      const data = chunks.filter(({ type }) => type.startsWith('data-'));
      expect(data).toEqual([
        {
          type: 'data-compacted',
          id: expect.stringMatching(/^compacted-\d+$/),
          data: expect.objectContaining({
            summary: COMPACTION_SUMMARY,
            strategy: 'summarize',
            model: 'scripted',
          }),
          transient: true,
        },
      ]);
    });
  },
);
