import { describe, expect, it } from 'vitest';
import { contextWindowOf } from './context-windows.js';
import { estimateRequestTokens, estimateTokens } from './estimate-tokens.js';

describe('contextWindowOf', () => {
  it.each([
    ['openai:gpt-4o-mini', 128_000],
    ['openai:o1-mini-2024-09-12', 128_000],
    ['openai:o1', 200_000],
    ['anthropic:claude-sonnet-4-5-20250929', 200_000],
    ['bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0', 200_000],
    ['bedrock:amazon.nova-micro-v1:0', 128_000],
  ])('knows %s: %i tokens (the most specific key wins)', (model, window) => {
    expect(contextWindowOf(model)).toBe(window);
  });

  it('knows no window for a model it has never heard of, nor the scripted one', () => {
    expect(contextWindowOf('openai:llama3.1')).toBeUndefined();
    expect(contextWindowOf('scripted')).toBeUndefined();
  });
});

describe('estimateTokens', () => {
  it('counts UTF-8 bytes over four, so scripts of many bytes a character count more', () => {
    expect(estimateTokens('abcd'.repeat(100))).toBe(100);
    expect(estimateTokens('漢'.repeat(100))).toBe(75);
    expect(estimateTokens('')).toBe(0);
  });

  it('counts a request as its system prompt and messages, each with its markers', () => {
    const messages = [
      { role: 'user' as const, content: 'abcd'.repeat(10) },
      { role: 'assistant' as const, content: 'abcd' },
    ];
    expect(estimateRequestTokens('abcd'.repeat(5), messages)).toBe(5 + 4 + (10 + 4) + (1 + 4));
  });
});
