import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseStreamCommand,
  type ConverseStreamCommandOutput,
  InternalServerException,
  ModelStreamErrorException,
  ResourceNotFoundException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { BedrockModel } from './bedrock-model.js';

const bedrock = mockClient(BedrockRuntimeClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => bedrock.restore());
const model = () =>
  new BedrockModel({
    modelId: 'anthropic.claude-test',
    client: new BedrockRuntimeClient({ region: 'us-east-1' }),
  });
const request = {
  system: 'You are an agent.',
  messages: [
    { role: 'user' as const, content: 'go' },
    { role: 'assistant' as const, content: 'ok' },
    { role: 'user' as const, content: 'more' },
  ],
  step: 1,
  turnStep: 1,
  stopSequences: ['</execute>', '<end>'],
};

/** A ConverseStream response, as the SDK hands it over: an async stream of events. */
function converse(deltas: string[], stopReason: string, stopSequence?: string): ConverseStreamCommandOutput {
  async function* events() {
    yield { messageStart: { role: 'assistant' as const } };
    for (const text of deltas) yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } };
    yield {
      messageStop: {
        stopReason,
        ...(stopSequence ? { additionalModelResponseFields: { stop_sequence: stopSequence } } : {}),
      },
    };
    yield {
      metadata: {
        usage: { inputTokens: 50, outputTokens: 30, totalTokens: 80, cacheReadInputTokens: 40 },
        metrics: { latencyMs: 120 },
      },
    };
  }
  return { stream: events(), $metadata: {} } as unknown as ConverseStreamCommandOutput;
}

/** A ConverseStream response whose event stream yields two deltas, then throws `failure` or just ends. */
function cut(failure?: Error): ConverseStreamCommandOutput {
  async function* events() {
    yield { messageStart: { role: 'assistant' as const } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'Hel' } } };
    yield { contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'lo' } } };
    if (failure) throw failure;
  }
  return { stream: events(), $metadata: {} } as unknown as ConverseStreamCommandOutput;
}

beforeEach(() => bedrock.reset());

describe('BedrockModel', () => {
  it('streams the deltas, restores a swallowed </execute>, and sends system, stop sequences and cache points', async () => {
    bedrock
      .on(ConverseStreamCommand)
      .resolves(converse(['<execute>[{"name": "echo", ', '"args": {}}]\n'], 'stop_sequence'));
    expect(await collectStream(model().stream(request))).toEqual([
      '<execute>[{"name": "echo", ',
      '"args": {}}]\n',
      '</execute>',
    ]);
    const input = bedrock.commandCalls(ConverseStreamCommand)[0]?.args[0].input;
    expect(input).toEqual({
      modelId: 'anthropic.claude-test',
      system: [{ text: 'You are an agent.' }, { cachePoint: { type: 'default' } }],
      messages: [
        { role: 'user', content: [{ text: 'go' }] },
        { role: 'assistant', content: [{ text: 'ok' }] },
        { role: 'user', content: [{ text: 'more' }, { cachePoint: { type: 'default' } }] },
      ],
      inferenceConfig: { maxTokens: 4096, stopSequences: ['</execute>', '<end>'] },
      additionalModelResponseFieldPaths: ['/stop_sequence'],
    });
  });

  it('sends a request’s maxOutputTokens as maxTokens over its own, and no stopSequences without stop sequences', async () => {
    bedrock.on(ConverseStreamCommand).callsFake(() => converse(['Summary'], 'end_turn'));
    const client = new BedrockRuntimeClient({ region: 'us-east-1' });
    const own = new BedrockModel({ modelId: 'anthropic.claude-test', client, maxTokens: 8000 });
    await collectStream(own.stream(request));
    await collectStream(
      own.stream({ ...request, stopSequences: [], maxOutputTokens: 300, purpose: 'compaction' }),
    );
    const [step, summary] = bedrock.commandCalls(ConverseStreamCommand).map((call) => call.args[0].input);
    expect(step?.inferenceConfig).toEqual({ maxTokens: 8000, stopSequences: ['</execute>', '<end>'] });
    expect(summary?.inferenceConfig).toEqual({ maxTokens: 300 });
  });

  it('reports usage with cache reads counted in the input', async () => {
    bedrock.on(ConverseStreamCommand).resolves(converse(['ok'], 'end_turn'));
    expect(await collectParts(model().stream(request))).toEqual([
      'ok',
      { inputTokens: 90, outputTokens: 30, cacheReadTokens: 40, cacheWriteTokens: 0 },
    ]);
  });

  it('A7 continues a stop inside a JSON string with an assistant prefill and no stop sequences', async () => {
    bedrock
      .on(ConverseStreamCommand)
      .resolvesOnce(converse(['<execute>[{"name": "w", "args": {"c": "a '], 'stop_sequence'))
      .resolvesOnce(converse(['</execute> b"}}]</execute>'], 'end_turn'));
    const parts = await collectParts(model().stream(request));
    expect(parts.filter((part) => typeof part === 'string').join('')).toBe(
      '<execute>[{"name": "w", "args": {"c": "a </execute> b"}}]</execute>',
    );
    const second = bedrock.commandCalls(ConverseStreamCommand)[1]?.args[0].input;
    expect(second?.inferenceConfig).toEqual({ maxTokens: 4096 });
    expect(second?.messages?.at(-1)).toEqual({
      role: 'assistant',
      content: [{ text: '<execute>[{"name": "w", "args": {"c": "a ' }],
    });
  });

  it('A7 puts back the very sequence that fired when the model reports it (Claude), keeping the stop sequences', async () => {
    bedrock
      .on(ConverseStreamCommand)
      .resolvesOnce(converse(['<execute>[{"name": "w", "args": {"c": "say '], 'stop_sequence', '<end>'))
      .resolvesOnce(converse([' now"}}]'], 'stop_sequence', '</execute>'));
    const text = (await collectStream(model().stream(request))).join('');
    expect(text).toBe('<execute>[{"name": "w", "args": {"c": "say <end> now"}}]</execute>');
    const second = bedrock.commandCalls(ConverseStreamCommand)[1]?.args[0].input;
    expect(second?.inferenceConfig?.stopSequences).toEqual(['</execute>', '<end>']);
    expect(second?.messages?.at(-1)?.content).toEqual([
      { text: '<execute>[{"name": "w", "args": {"c": "say <end>' },
    ]);
  });

  it('sends no cache points to a model without prompt caching, which Bedrock would refuse', async () => {
    bedrock.on(ConverseStreamCommand).resolves(converse(['ok'], 'end_turn'));
    const llama = new BedrockModel({
      modelId: 'meta.llama3-3-70b-instruct-v1:0',
      client: new BedrockRuntimeClient({ region: 'us-east-1' }),
    });
    await collectStream(llama.stream(request));
    const input = bedrock.commandCalls(ConverseStreamCommand)[0]?.args[0].input;
    expect(JSON.stringify(input)).not.toContain('cachePoint');
    expect(input?.system).toEqual([{ text: 'You are an agent.' }]);
  });

  it('adds nothing after a natural end', async () => {
    bedrock.on(ConverseStreamCommand).resolves(converse(['All done.'], 'end_turn'));
    expect(await collectStream(model().stream(request))).toEqual(['All done.']);
  });

  it('reads on past a marker the model did not stop at, for the usage reported at the end', async () => {
    bedrock
      .on(ConverseStreamCommand)
      .resolves(converse(['<execute>[]</execute>', '\n<results>invented</results>'], 'end_turn'));
    const parts = await collectParts(model().stream({ ...request, stopSequences: [] }));
    expect(parts).toEqual([
      '<execute>[]</execute>',
      { inputTokens: 90, outputTokens: 30, cacheReadTokens: 40, cacheWriteTokens: 0 },
    ]);
  });

  it.each([
    [new ModelStreamErrorException({ message: 'model failed', $metadata: {} }), 'ModelUnavailable'],
    [new InternalServerException({ message: 'internal', $metadata: {} }), 'ModelUnavailable'],
    [new ThrottlingException({ message: 'slow down', $metadata: {} }), 'ModelUnavailable'],
    [new ValidationException({ message: 'too long', $metadata: {} }), 'ModelRejectedRequest'],
  ])('names %s inside the event stream as %s', async (error, name) => {
    bedrock.on(ConverseStreamCommand).resolves(cut(error));
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name,
      message: expect.stringContaining(error.message),
    });
  });

  it('fails a stream that ends before messageStop and metadata as ModelUnavailable', async () => {
    bedrock.on(ConverseStreamCommand).resolves(cut());
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({
      name: 'ModelUnavailable',
      message: expect.stringContaining('the stream ended before its `messageStop` and `metadata` events'),
    });
  });

  it.each([
    [
      new AccessDeniedException({ message: 'not authorized', $metadata: { httpStatusCode: 403 } }),
      'ModelAuthFailed',
    ],
    [
      new ResourceNotFoundException({ message: 'no such model', $metadata: { httpStatusCode: 404 } }),
      'ModelNotFound',
    ],
    [
      new ThrottlingException({ message: 'slow down', $metadata: { httpStatusCode: 429 } }),
      'ModelUnavailable',
    ],
  ])('reports %s as %s', async (error, name) => {
    bedrock.on(ConverseStreamCommand).rejects(error);
    await expect(collectStream(model().stream(request))).rejects.toMatchObject({ name });
  });
});
