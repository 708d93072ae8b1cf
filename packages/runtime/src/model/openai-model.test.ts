import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { cutReply, openAIStream, sseReply } from '../testing/provider-streams.js';
import { type RecordingServer, type Reply, startRecordingServer } from '../testing/recording-server.js';
import { OpenAIModel } from './openai-model.js';

let server: RecordingServer;
const requests = () => server.bodies.map((body) => JSON.parse(body || '{}') as Record<string, unknown>);

/** A completion streaming `deltas`, with a usage frame. */
const sse = (deltas: string[], finish = 'stop'): Reply =>
  sseReply(
    openAIStream(deltas, {
      finish,
      usage: { prompt_tokens: 50, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 20 } },
    }),
  );

function status(code: number, headers: Record<string, string> = {}): Reply {
  return (response) =>
    response
      .writeHead(code, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify({ error: { message: `status ${code}`, type: 'error' } }));
}

beforeAll(async () => {
  server = await startRecordingServer(status(500));
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = () =>
  new OpenAIModel({
    model: 'test-model',
    client: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 2 }),
  });
const request = {
  system: 'You are an agent.',
  messages: [{ role: 'user' as const, content: 'go' }],
  step: 0,
  turnStep: 0,
  stopSequences: ['</execute>', '<end>'],
};

describe('OpenAIModel', () => {
  it('streams the deltas, and sends the system prompt, the messages, the stop sequences and stream: true', async () => {
    server.replies.push(sse(['Hel', 'lo']));
    expect(await collectStream(model().stream(request))).toEqual(['Hel', 'lo']);
    expect(requests()[0]).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      stop: ['</execute>', '<end>'],
      messages: [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'go' },
      ],
    });
  });

  it('sends a request’s maxOutputTokens as max_tokens over its own, and no stop field without stop sequences', async () => {
    server.replies.push(sse(['Sum']), sse(['mary']));
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    const own = new OpenAIModel({ model: 'test-model', client, maxTokens: 4000 });
    await collectStream(own.stream(request));
    await collectStream(
      own.stream({ ...request, stopSequences: [], maxOutputTokens: 300, purpose: 'compaction' }),
    );
    const [step, summary] = requests();
    expect(step).toMatchObject({ max_tokens: 4000, stop: ['</execute>', '<end>'] });
    expect(summary).toMatchObject({ max_tokens: 300 });
    expect(summary).not.toHaveProperty('stop');
  });

  it('streams a compaction’s summary whole, in one request, markers and all', async () => {
    server.replies.push(sse(['Ran <execute>[{"name": "ls", "args": {}}]</execute>', ' and read <end>.']));
    const summary = { ...request, stopSequences: [], purpose: 'compaction' as const };
    expect((await collectStream(model().stream(summary))).join('')).toBe(
      'Ran <execute>[{"name": "ls", "args": {}}]</execute> and read <end>.',
    );
    expect(requests()).toHaveLength(1);
  });

  it('A7 restores the </execute> a stop sequence swallowed', async () => {
    server.replies.push(sse(['<execute>[{"name": "echo", ', '"args": {"text": "x"}}]\n']));
    expect((await collectStream(model().stream(request))).at(-1)).toBe('</execute>');
  });

  it('A7 continues a stop inside a JSON string without stop sequences, and closes it where the step ends', async () => {
    server.replies.push(
      sse(['<execute>[{"name": "w", "args": {"c": "a ']),
      sse(['</execute> b"}}]</exe', 'cute>\n<results>invented</results>']),
    );
    expect((await collectStream(model().stream(request))).join('')).toBe(
      '<execute>[{"name": "w", "args": {"c": "a </execute> b"}}]</execute>\n<results>invented</results>',
    );
    const second = requests()[1];
    expect(second?.stop).toBeUndefined();
    expect(second?.messages).toEqual([
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '<execute>[{"name": "w", "args": {"c": "a ' },
    ]);
  });

  it('A7 adds nothing when the stop came after prose', async () => {
    server.replies.push(sse(['All done.']));
    expect(await collectStream(model().stream(request))).toEqual(['All done.']);
  });

  it('reports each request’s usage, cached prompt tokens included', async () => {
    server.replies.push(sse(['ok']));
    expect((await collectParts(model().stream(request))).at(-1)).toEqual({
      inputTokens: 50,
      outputTokens: 30,
      cacheReadTokens: 20,
      cacheWriteTokens: 0,
    });
  });

  it('asks a model that refuses stop sequences again without them, from then on, and closes its steps where they end', async () => {
    const unsupported: Reply = (response) =>
      response.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message: "Unsupported parameter: 'stop' is not supported with this model.",
            type: 'invalid_request_error',
            param: 'stop',
            code: 'unsupported_parameter',
          },
        }),
      );
    server.replies.push(unsupported, sse(['<execute>[]</execute>\n<results>invented']), sse(['Done.']));
    const reasoning = model();
    expect((await collectStream(reasoning.stream(request))).join('')).toBe(
      '<execute>[]</execute>\n<results>invented',
    );
    expect(await collectStream(reasoning.stream(request))).toEqual(['Done.']);
    expect(requests().map((body) => body.stop)).toEqual([['</execute>', '<end>'], undefined, undefined]);
  });

  it('reports any other refused request as ModelRejectedRequest, once, with the provider’s reason', async () => {
    server.replies.push(status(400));
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name: 'ModelRejectedRequest',
      message: expect.stringContaining('rejected the request (400): status 400'),
    });
    expect(requests()).toHaveLength(1);
  });

  it('retries a 429 that says when, then streams', async () => {
    server.replies.push(status(429, { 'retry-after-ms': '10' }), sse(['ok']));
    expect(await collectStream(model().stream(request))).toEqual(['ok']);
    expect(requests()).toHaveLength(2);
  });

  it('reads on past a marker the server did not stop at, for the usage it reports at the end', async () => {
    server.replies.push(sse(['<execute>[]</execute>', '\n<results>invented</results>', ' and more']));
    const parts = await collectParts(model().stream({ ...request, stopSequences: [] }));
    expect(parts.filter((part) => typeof part === 'string').join('')).toBe('<execute>[]</execute>');
    expect(parts.at(-1)).toEqual({
      inputTokens: 50,
      outputTokens: 30,
      cacheReadTokens: 20,
      cacheWriteTokens: 0,
    });
  });

  it.each([
    ['a 5xx code', 502, 'ModelUnavailable', 'is unavailable (502): upstream failed'],
    ['a 4xx code', 400, 'ModelRejectedRequest', 'rejected the request (400): upstream failed'],
  ])('names an error chunk mid-stream carrying %s', async (_, code, name, message) => {
    const chunk = `data: ${JSON.stringify({ error: { message: 'upstream failed', code } })}\n\n`;
    server.replies.push(sseReply(openAIStream(['Hel']).split('data: ').slice(0, 3).join('data: ') + chunk));
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name,
      message: expect.stringContaining(message),
    });
  });

  it('fails a stream cut mid-way, or ended before its finish reason, as ModelUnavailable', async () => {
    const partial = openAIStream(['Hel', 'lo']).split('data: ').slice(0, 3).join('data: ');
    server.replies.push(cutReply(partial), sseReply(partial));
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name: 'ModelUnavailable',
      message: expect.stringContaining('broke ('),
    });
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name: 'ModelUnavailable',
      message: expect.stringContaining('the stream ended before its finish reason'),
    });
  });

  it('names a refused connection with the URL and the cause', async () => {
    const closed = await startRecordingServer(status(500));
    await closed.close();
    const at = (baseURL: string) =>
      new OpenAIModel({ model: 'm', client: new OpenAI({ baseURL, apiKey: 'test-key', maxRetries: 0 }) });
    await expect(collectStream(at(`${closed.url}/v1`).stream(request))).rejects.toMatchObject({
      name: 'ModelUnavailable',
      message: `cannot connect to ${closed.url}/v1: ECONNREFUSED`,
    });
    // fetch refuses the discard port before opening a socket.
    await expect(collectStream(at('http://127.0.0.1:9/v1').stream(request))).rejects.toMatchObject({
      name: 'ModelUnavailable',
      message: 'cannot connect to http://127.0.0.1:9/v1: bad port',
    });
  });

  it.each([
    [401, 'ModelAuthFailed', 'refused the API key (401): set OPENAI_API_KEY', 1],
    [404, 'ModelNotFound', 'was not found (404): check the model id and the base URL', 1],
    [500, 'ModelUnavailable', 'is unavailable', 3],
  ])('reports HTTP %s as %s, after %s request(s)', async (code, name, message, attempts) => {
    server.replies.push(...Array.from({ length: 3 }, () => status(code, { 'retry-after-ms': '1' })));
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name,
      message: expect.stringContaining(message),
    });
    expect(requests()).toHaveLength(attempts);
  });
});
