import { describe, expect, it } from 'vitest';
import { parseRunOptions } from './run-options.js';

describe('parseRunOptions', () => {
  it('takes named model profiles, repeated, in both spellings; a later name wins', () => {
    const options = parseRunOptions([
      '--model-profile',
      'fast=anthropic:claude-haiku-4-5',
      '--model-profile=local=openai:llama3.1',
      '--model-profile',
      'fast=scripted',
    ]);
    expect(options.modelProfiles).toEqual({ fast: 'scripted', local: 'openai:llama3.1' });
  });

  it('configures no profile by default', () => {
    expect(parseRunOptions([]).modelProfiles).toEqual({});
  });

  it.each([
    [
      'fast',
      '--model-profile takes NAME=MODEL, e.g. --model-profile fast=anthropic:claude-haiku-4-5; received "fast".',
    ],
    [
      '=scripted',
      '--model-profile takes NAME=MODEL, e.g. --model-profile fast=anthropic:claude-haiku-4-5; received "=scripted".',
    ],
    [
      'fast=gpt-4o',
      '--model-profile fast: expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", received "gpt-4o".',
    ],
    [
      'fast=replay',
      '--model-profile fast: expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", received "replay".',
    ],
  ])('refuses --model-profile %s', (pair, message) => {
    expect(() => parseRunOptions(['--model-profile', pair])).toThrow(message);
  });
});
