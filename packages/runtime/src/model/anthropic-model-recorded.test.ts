import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { expectContextTooLong, refusalIn } from '../testing/expect-context-too-long.js';
import { recordedErrors, recordedFrames } from '../testing/recorded-frames.js';
import { replayFixture } from '../testing/replay-fixture.js';
import type { Recording } from '../testing/replay-server.js';
import { AnthropicModel } from './anthropic-model.js';
import type { ContextFigures } from './context-refusal.js';

const replay = replayFixture();
const recorded = (file: string) => new URL(`./recorded/anthropic/${file}`, import.meta.url);
const SSE = { 'content-type': 'text/event-stream' };

/** The model's step over a recorded Messages stream. */
function replayed(file: string) {
  const model = new AnthropicModel({ model: 'claude', baseURL: replay.url(), apiKey: 'test' });
  return replay.step({ headers: SSE, frames: recordedFrames('anthropic', recorded(file)) }, model);
}

/** The one recorded answer a refusal's file holds. */
/** The error of the model's step while the server answers `recording`, without the SDK's retries. */
function failure(recording: Recording) {
  const client = new Anthropic({ baseURL: replay.url(), apiKey: 'test', maxRetries: 0 });
  return replay.failure(recording, new AnthropicModel({ model: 'claude', client }));
}

describe('AnthropicModel against recorded streams', () => {
  it('reads text through pings, with usage updated by message_delta', async () => {
    const { events, usage } = await replayed('text.chunks.txt');
    expect(events).toEqual([{ type: 'respond', content: 'pong' }]);
    expect(usage).toEqual({ inputTokens: 61, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps thinking deltas as a think event and leaves the signature out', async () => {
    const { events, usage } = await replayed('thinking.chunks.txt');
    expect(events).toEqual([
      {
        type: 'think',
        content:
          "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, applying successive division until I reach a remainder of zero, which gives me 21 as the greatest common divisor.",
      },
      {
        type: 'respond',
        content: expect.stringMatching(
          /^# Finding GCD\(1071, 462\) Using the Euclidean Algorithm[\s\S]*462 = 21 × 22 ✓$/,
        ),
      },
    ]);
    expect(usage).toEqual({ inputTokens: 47, outputTokens: 373, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('counts prompt-cache reads and writes in the input, exactly', async () => {
    const { events, usage } = await replayed('prompt-cache.chunks.txt');
    expect(events).toEqual([
      { type: 'respond', content: 'The sum of the squares of the numbers 1 through 12 is **650**.' },
    ]);
    expect(usage).toEqual({
      inputTokens: 6 + 6289 + 3337,
      outputTokens: 198,
      cacheReadTokens: 6289,
      cacheWriteTokens: 3337,
    });
  });
});

describe('AnthropicModel against recorded failures', () => {
  const errors = recordedErrors(recorded('error-responses.json'));
  const thinking = (frames: number) =>
    recordedFrames('anthropic', recorded('thinking.chunks.txt')).slice(0, frames);

  it.each(errors)('names a $status answer $expected', async ({ recording, expected }) => {
    expect((await failure(recording)).name).toBe(expected);
  });

  it('names an overloaded_error event mid-stream ModelUnavailable', async () => {
    const frames = recordedFrames('anthropic', recorded('overloaded-mid-stream.chunks.txt'));
    const error = await failure({ headers: SSE, frames });
    expect(error.name).toBe('ModelUnavailable');
    expect(error.message).toContain('Overloaded');
  });

  it('names a connection cut mid-stream ModelUnavailable', async () => {
    expect((await failure({ headers: SSE, frames: thinking(6), cut: true })).name).toBe('ModelUnavailable');
  });

  it('names a stream that ends without message_stop ModelUnavailable', async () => {
    expect((await failure({ headers: SSE, frames: thinking(12) })).name).toBe('ModelUnavailable');
  });
});

describe('AnthropicModel against recorded context-window refusals', () => {
  it.each<[string, ContextFigures, string]>([
    [
      'prompt-too-long.json',
      { limitTokens: 200_000, requestTokens: 219_898 },
      'prompt is too long: 219898 tokens > 200000 maximum',
    ],
    [
      'context-limit-with-max-tokens.json',
      { limitTokens: 200_000, requestTokens: 178_959 },
      'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000',
    ],
  ])('names %s ContextTooLong, with its figures and its own message', async (file, figures, says) => {
    const refusal = refusalIn(recorded(file));
    const error = await failure(refusal.recording);
    expectContextTooLong(error, {
      expected: refusal.expected,
      figures,
      says,
      cause: Anthropic.BadRequestError,
    });
  });
});
