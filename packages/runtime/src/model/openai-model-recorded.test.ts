import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { expectContextTooLong, refusalIn } from '../testing/expect-context-too-long.js';
import { recordedErrors, recordedFrames } from '../testing/recorded-frames.js';
import { replayFixture } from '../testing/replay-fixture.js';
import type { Recording } from '../testing/replay-server.js';
import type { ContextFigures } from './context-refusal.js';
import { OpenAIModel } from './openai-model.js';

const replay = replayFixture();
const recorded = (file: string) => new URL(`./recorded/${file}`, import.meta.url);
const SSE = { 'content-type': 'text/event-stream' };

/** The model's step over a recorded Chat Completions stream. */
function replayed(file: string, onText?: (text: string) => void) {
  const model = new OpenAIModel({ model: 'm', baseURL: `${replay.url()}/v1`, apiKey: 'test' });
  return replay.step({ headers: SSE, frames: recordedFrames('openai', recorded(file)) }, model, onText);
}

/** The one recorded answer a refusal's file holds. */
/** The error of the model's step while the server answers `recording`, without the SDK's retries. */
function failure(recording: Recording) {
  const client = new OpenAI({ baseURL: `${replay.url()}/v1`, apiKey: 'test', maxRetries: 0 });
  return replay.failure(recording, new OpenAIModel({ model: 'm', client }));
}

describe('OpenAIModel against recorded streams', () => {
  it('reads OpenAI text and usage exactly', async () => {
    const { events, usage } = await replayed('openai/text.chunks.txt');
    expect(events).toEqual([
      {
        type: 'respond',
        content: expect.stringMatching(
          /^\*\*Holiday Name:\*\* Harmony Day\n\n\*\*Date:\*\*[\s\S]*mutual respect\.$/,
        ),
      },
    ]);
    expect(usage).toEqual({ inputTokens: 16, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps DeepSeek reasoning_content as a think event before the answer, streamed as <think>', async () => {
    let streamed = '';
    const { events, usage } = await replayed('openai-compatible/deepseek-reasoning.chunks.txt', (text) => {
      streamed += text;
    });
    // Token mode streams the same text the step parsed: the reasoning as a <think> block.
    expect(streamed).toMatch(/^<think>We need to count[\s\S]*answer is 3\.<\/think>The word "strawberry"/);
    expect(events).toEqual([
      {
        type: 'think',
        content: expect.stringMatching(
          /^We need to count the number of the letter "r"[\s\S]*the answer is 3\.$/,
        ),
      },
      { type: 'respond', content: 'The word "strawberry" contains three "r"s.' },
    ]);
    expect(usage).toEqual({ inputTokens: 18, outputTokens: 219, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps Groq reasoning as a think event and reads the usage of its last chunk', async () => {
    const { events, usage } = await replayed('openai-compatible/groq-reasoning.chunks.txt');
    expect(events).toEqual([
      {
        type: 'think',
        content: expect.stringMatching(
          /^Okay, let me try to figure out how many times[\s\S]*"strawberry" is three\.$/,
        ),
      },
      {
        type: 'respond',
        content: expect.stringMatching(/^The word \*\*"strawberry"\*\* is spelled as[\s\S]*\\boxed\{3\}\$$/),
      },
    ]);
    expect(usage).toEqual({ inputTokens: 17, outputTokens: 1107, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('reads DeepSeek prompt-cache hits, and a step of reasoning alone is a think event', async () => {
    const { events, usage } = await replayed('openai-compatible/deepseek-cached-tool-call.chunks.txt');
    expect(events).toEqual([
      {
        type: 'think',
        content: expect.stringMatching(/^The user is asking for the weather in San Francisco\./),
      },
    ]);
    expect(usage).toEqual({ inputTokens: 339, outputTokens: 83, cacheReadTokens: 320, cacheWriteTokens: 0 });
  });

  it('reads a step of native tool-call deltas alone as no event at all (an empty step), keeping its usage', async () => {
    const { events, usage } = await replayed('openai-compatible/deepseek-tool-call-only.chunks.txt');
    expect(events).toEqual([]);
    expect(usage).toEqual({ inputTokens: 339, outputTokens: 83, cacheReadTokens: 320, cacheWriteTokens: 0 });
  });
});

describe('OpenAIModel against recorded failures', () => {
  const errors = recordedErrors(recorded('openai/error-responses.json'));
  const text = () => recordedFrames('openai', recorded('openai/text.chunks.txt')).slice(0, 20);

  it.each(errors)('names a $status answer $expected', async ({ recording, expected }) => {
    expect((await failure(recording)).name).toBe(expected);
  });

  it('names an error chunk mid-stream from an OpenAI-compatible service ModelUnavailable', async () => {
    const frames = recordedFrames(
      'openai',
      recorded('openai-compatible/openrouter-error-mid-stream.chunks.txt'),
    );
    const error = await failure({ headers: SSE, frames });
    expect(error.name).toBe('ModelUnavailable');
    expect(error.message).toContain('Provider disconnected unexpectedly');
  });

  it('names a connection cut mid-stream ModelUnavailable', async () => {
    expect((await failure({ headers: SSE, frames: text(), cut: true })).name).toBe('ModelUnavailable');
  });

  it('names a stream that ends without its finish and [DONE] ModelUnavailable', async () => {
    expect((await failure({ headers: SSE, frames: text() })).name).toBe('ModelUnavailable');
  });
});

describe('OpenAIModel against recorded context-window refusals', () => {
  it.each<[string, ContextFigures, string]>([
    [
      'openai/context-length-exceeded.json',
      { limitTokens: 4097, requestTokens: 4363 },
      'your messages resulted in 4363 tokens',
    ],
    [
      'openai/context-length-exceeded-with-completion.json',
      { limitTokens: 4097, requestTokens: 3120 },
      '(3120 in the messages, 1000 in the completion)',
    ],
    [
      'openai-compatible/vllm-context-too-long.json',
      { limitTokens: 32768, requestTokens: 32836 },
      'your request has 32836 input tokens',
    ],
    [
      'openai-compatible/deepseek-context-too-long.json',
      { limitTokens: 131072, requestTokens: 122942 },
      '(122942 in the messages, 8192 in the completion)',
    ],
    [
      'openai-compatible/llama-cpp-exceed-context-size.json',
      { limitTokens: 8192, requestTokens: 14429 },
      'the request exceeds the available context size',
    ],
  ])('names %s ContextTooLong, with its figures and its own message', async (file, figures, says) => {
    const refusal = refusalIn(recorded(file));
    const error = await failure(refusal.recording);
    expectContextTooLong(error, { expected: refusal.expected, figures, says, cause: OpenAI.BadRequestError });
  });

  it('leaves a refusal whose body has no `error` field ModelRejectedRequest: the SDK keeps none of it', async () => {
    const refusal = refusalIn(recorded('openai-compatible/vllm-top-level-context-too-long.json'));
    const error = await failure(refusal.recording);
    expect(error.name).toBe(refusal.expected);
    expect(error.message).toContain('400 status code (no body)');
  });
});
