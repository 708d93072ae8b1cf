import { BedrockRuntimeClient, ValidationException } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { expectContextTooLong, refusalIn } from '../testing/expect-context-too-long.js';
import { recordedErrors, recordedFrames } from '../testing/recorded-frames.js';
import { replayFixture } from '../testing/replay-fixture.js';
import type { Recording } from '../testing/replay-server.js';
import { BedrockModel } from './bedrock-model.js';
import { bedrockProvider } from './bedrock-provider.js';
import type { ContextFigures } from './context-refusal.js';

const replay = replayFixture({ http2: true });
const recorded = (file: string) => new URL(`./recorded/bedrock/${file}`, import.meta.url);
const EVENT_STREAM = { 'content-type': 'application/vnd.amazon.eventstream' };

/** A Bedrock model whose client talks HTTP/2 to the replay server (`maxAttempts: 1` turns the SDK's retries off). */
function model(maxAttempts?: number) {
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: replay.url(),
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    ...(maxAttempts ? { maxAttempts } : {}),
  });
  return new BedrockModel({ modelId: 'anthropic.claude-test', client });
}

/** The one recorded answer a refusal's file holds. */
/** The model's step over a recorded ConverseStream response. */
function replayed(file: string) {
  return replay.step({ headers: EVENT_STREAM, frames: recordedFrames('bedrock', recorded(file)) }, model());
}

describe('BedrockModel against recorded streams', () => {
  it('reads text, the stop reason and usage over HTTP/2 event-stream framing', async () => {
    const { events, usage } = await replayed('text.chunks.txt');
    expect(events).toEqual([
      {
        type: 'respond',
        content:
          'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."',
      },
    ]);
    expect(usage).toEqual({ inputTokens: 22, outputTokens: 55, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps reasoningContent as a think event and leaves the signature out', async () => {
    const { events, usage } = await replayed('reasoning.chunks.txt');
    expect(events).toEqual([
      {
        type: 'think',
        content:
          'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r\'s.',
      },
      { type: 'respond', content: expect.stringMatching(/^There are \*\*3\*\* r's in "strawberry":/) },
    ]);
    expect(usage).toEqual({ inputTokens: 51, outputTokens: 94, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('the bedrock provider', () => {
  it('sends its requests to the base URL it is given (--base-url), with the region and credentials the SDK finds', async () => {
    vi.stubEnv('AWS_REGION', 'us-east-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const model = bedrockProvider.model('anthropic.claude-test', { baseURL: replay.url() });
    const frames = recordedFrames('bedrock', recorded('text.chunks.txt'));
    const { events } = await replay.step({ headers: EVENT_STREAM, frames }, model);
    expect(events).toMatchObject([{ type: 'respond', content: expect.stringContaining('strawberry') }]);
  });
});

describe('BedrockModel against recorded failures', () => {
  const errors = recordedErrors(recorded('error-responses.json'));
  const failure = (recording: Recording) => replay.failure(recording, model(1));
  const reasoning = () => recordedFrames('bedrock', recorded('reasoning.chunks.txt')).slice(0, 6);

  it.each(errors)('names a $status answer $expected', async ({ recording, expected }) => {
    expect((await failure(recording)).name).toBe(expected);
  });

  it('names a modelStreamErrorException mid-stream ModelUnavailable', async () => {
    const frames = [
      ...recordedFrames('bedrock', recorded('text.chunks.txt')).slice(0, 4),
      ...recordedFrames('bedrock', recorded('model-stream-error.eventstream.base64.txt')),
    ];
    const error = await failure({ headers: EVENT_STREAM, frames });
    expect(error.name).toBe('ModelUnavailable');
    expect(error.message).toContain('Model Stream Error');
  });

  it('names an HTTP/2 stream reset mid-stream ModelUnavailable', async () => {
    expect((await failure({ headers: EVENT_STREAM, frames: reasoning(), cut: true })).name).toBe(
      'ModelUnavailable',
    );
  });

  it('names a stream that ends without messageStop and metadata ModelUnavailable', async () => {
    expect((await failure({ headers: EVENT_STREAM, frames: reasoning() })).name).toBe('ModelUnavailable');
  });
});

describe('BedrockModel against recorded context-window refusals', () => {
  const failure = (recording: Recording) => replay.failure(recording, model(1));

  it.each<[string, ContextFigures, string]>([
    ['input-too-long.json', {}, 'Input is too long for requested model.'],
    [
      'prompt-too-long.json',
      { limitTokens: 200_000, requestTokens: 200_049 },
      'prompt is too long: 200049 tokens > 200000 maximum',
    ],
  ])(
    'names a ValidationException of %s ContextTooLong, with its figures and its own message',
    async (file, figures, says) => {
      const refusal = refusalIn(recorded(file));
      const error = await failure(refusal.recording);
      expectContextTooLong(error, { expected: refusal.expected, figures, says, cause: ValidationException });
    },
  );

  it('names a validationException inside the stream ContextTooLong', async () => {
    const frames = recordedFrames('bedrock', recorded('input-too-long-mid-stream.eventstream.base64.txt'));
    const error = await failure({ headers: EVENT_STREAM, frames });
    expect(error).toMatchObject({ name: 'ContextTooLong' });
    expect(error).toHaveProperty('figures', {});
    expect(error.message).toContain(
      'The model returned the following errors: Input is too long for requested model.',
    );
    expect(error.cause).toBeInstanceOf(ValidationException);
  });
});
