import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { anthropicStream, cutReply, sseReply } from '../testing/provider-streams.js';
import { type RecordingServer, type Reply, startRecordingServer } from '../testing/recording-server.js';
import { AnthropicModel } from './anthropic-model.js';

let server: RecordingServer;

/** A message streaming `deltas`, ended by `stopSequence` if given, with cache reads and writes. */
const sse = (deltas: string[], stopSequence: string | null = null): Reply =>
  sseReply(
    anthropicStream(deltas, {
      stopSequence,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_creation_input_tokens: 100,
        cache_read_input_tokens: 200,
      },
    }),
  );

/** An API error as Anthropic writes it, with optional headers such as `retry-after-ms`. */
const failing =
  (code: number, type: string, headers: Record<string, string> = {}): Reply =>
  (response) =>
    response
      .writeHead(code, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ type: 'error', error: { type, message: `status ${code}` } }));

const refused: Reply = (response) =>
  response
    .writeHead(401, { 'content-type': 'application/json' })
    .end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}');

beforeAll(async () => {
  server = await startRecordingServer(refused);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = () =>
  new AnthropicModel({
    model: 'claude-test',
    client: new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 }),
  });
const step = (messages: Array<{ role: 'user' | 'assistant'; content: string }>) => ({
  system: 'You are an agent.',
  messages,
  step: 0,
  turnStep: 0,
  stopSequences: ['</execute>', '<end>'],
});

const GO = step([{ role: 'user', content: 'go' }]);

/** Expects a step to fail with the error `name`, its message containing `message`. */
const expectFailure = (name: string, message: string) =>
  expect(collectStream(model().stream(GO))).rejects.toMatchObject({
    name,
    message: expect.stringContaining(message),
  });

describe('AnthropicModel', () => {
  it('streams the text deltas and restores the </execute> the stop sequence swallowed', async () => {
    server.replies.push(sse(['<execute>[{"name": "echo", ', '"args": {}}]\n'], '</execute>'));
    expect(await collectStream(model().stream(step([{ role: 'user', content: 'go' }])))).toEqual([
      '<execute>[{"name": "echo", ',
      '"args": {}}]\n',
      '</execute>',
    ]);
    expect(JSON.parse(server.bodies[0] ?? '')).toMatchObject({
      model: 'claude-test',
      stream: true,
      stop_sequences: ['</execute>', '<end>'],
      system: [{ type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('sends a request’s maxOutputTokens as max_tokens over its own, and no stop_sequences without stop sequences', async () => {
    server.replies.push(sse(['Sum']), sse(['mary']));
    const client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
    const own = new AnthropicModel({ model: 'claude-test', client, maxTokens: 8000 });
    await collectStream(own.stream(GO));
    await collectStream(
      own.stream({ ...GO, stopSequences: [], maxOutputTokens: 300, purpose: 'compaction' }),
    );
    const [stepBody, summary] = server.bodies.map((body) => JSON.parse(body));
    expect(stepBody).toMatchObject({ max_tokens: 8000, stop_sequences: ['</execute>', '<end>'] });
    expect(summary).toMatchObject({ max_tokens: 300 });
    expect(summary).not.toHaveProperty('stop_sequences');
  });

  it('marks the same stable prefix on every later step, so the prompt cache can reuse it', async () => {
    server.replies.push(sse(['one']), sse(['two']));
    const first = [{ role: 'user' as const, content: 'go' }];
    const second = [
      ...first,
      { role: 'assistant' as const, content: 'one' },
      { role: 'user' as const, content: 'more' },
    ];
    await collectStream(model().stream(step(first)));
    await collectStream(model().stream(step(second)));
    const [one, two] = server.bodies.map((body) => JSON.parse(body));
    expect(two.system).toEqual(one.system);
    expect(two.messages[0].content[0].text).toBe('go');
    expect(one.messages.at(-1).content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(two.messages.at(-1).content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(
      two.messages
        .slice(0, -1)
        .every(
          (message: { content: Array<{ cache_control?: unknown }> }) =>
            message.content[0]?.cache_control === undefined,
        ),
    ).toBe(true);
  });

  it('A7 continues a stop inside a JSON string with the very sequence that fired, prefilled', async () => {
    server.replies.push(
      sse(['<execute>[{"name": "w", "args": {"c": "say '], '<end>'),
      sse([' now"}}]'], '</execute>'),
    );
    const chunks = await collectStream(model().stream(step([{ role: 'user', content: 'go' }])));
    expect(chunks.join('')).toBe('<execute>[{"name": "w", "args": {"c": "say <end> now"}}]</execute>');
    expect(JSON.parse(server.bodies[1] ?? '').messages.at(-1)).toEqual({
      role: 'assistant',
      content: '<execute>[{"name": "w", "args": {"c": "say <end>',
    });
  });

  it('reports usage with cache reads and writes counted in the input', async () => {
    server.replies.push(sse(['ok']));
    const parts = await collectParts(model().stream(step([{ role: 'user', content: 'go' }])));
    expect(parts.at(-1)).toEqual({
      inputTokens: 310,
      outputTokens: 5,
      cacheReadTokens: 200,
      cacheWriteTokens: 100,
    });
  });

  it('retries an overloaded or throttled API that says when, then streams', async () => {
    const retrying = new AnthropicModel({
      model: 'claude-test',
      client: new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 2 }),
    });
    server.replies.push(
      failing(429, 'rate_limit_error', { 'retry-after-ms': '10' }),
      failing(529, 'overloaded_error'),
      sse(['ok']),
    );
    expect(await collectStream(retrying.stream(step([{ role: 'user', content: 'go' }])))).toEqual(['ok']);
    expect(server.bodies).toHaveLength(3);
  });

  it.each([
    [404, 'not_found_error', 'ModelNotFound', 'check the model id'],
    [500, 'api_error', 'ModelUnavailable', 'is unavailable'],
  ])('reports HTTP %s as %s, once retries are spent', async (code, type, name, message) => {
    server.replies.push(failing(code, type));
    await expect(
      collectStream(model().stream(step([{ role: 'user', content: 'go' }]))),
    ).rejects.toMatchObject({
      name,
      message: expect.stringContaining(message),
    });
  });

  it('reads on past a marker the server did not stop at, for the output tokens it reports at the end', async () => {
    server.replies.push(sse(['<execute>[]</execute>', '\n<results>invented</results>']));
    const parts = await collectParts(model().stream({ ...GO, stopSequences: [] }));
    expect(parts.filter((part) => typeof part === 'string').join('')).toBe('<execute>[]</execute>');
    expect(parts.at(-1)).toMatchObject({ inputTokens: 310, outputTokens: 5 });
  });

  it.each([
    ['overloaded_error', 'ModelUnavailable', 'is unavailable (overloaded_error): Overloaded'],
    [
      'invalid_request_error',
      'ModelRejectedRequest',
      'rejected the request (invalid_request_error): Overloaded',
    ],
  ])('names an SSE error event mid-stream of type %s as %s', async (type, name, message) => {
    const events = anthropicStream(['Hel', 'lo']).split('\n\n');
    const error = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message: 'Overloaded' } })}`;
    server.replies.push(sseReply(`${[...events.slice(0, 3), error].join('\n\n')}\n\n`));
    await expectFailure(name, message);
  });

  it('fails a stream cut mid-way, or ended before message_stop, as ModelUnavailable', async () => {
    const partial = `${anthropicStream(['Hel', 'lo']).split('\n\n').slice(0, 4).join('\n\n')}\n\n`;
    server.replies.push(cutReply(partial), sseReply(partial));
    await expectFailure('ModelUnavailable', 'broke (');
    await expectFailure('ModelUnavailable', 'the stream ended before its `message_stop` event');
  });

  it('reports a refused key as ModelAuthFailed, saying what to fix', async () => {
    await expect(
      collectStream(model().stream(step([{ role: 'user', content: 'go' }]))),
    ).rejects.toMatchObject({
      name: 'ModelAuthFailed',
      message: expect.stringContaining('set ANTHROPIC_API_KEY to a valid key'),
    });
  });
});
