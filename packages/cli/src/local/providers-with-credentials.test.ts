import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providersWithCredentials } from './providers-with-credentials.js';

const emptyHome = mkdtempSync(join(tmpdir(), 'home-'));

describe('providersWithCredentials', () => {
  it.each([
    [{}, []],
    [{ OPENAI_API_KEY: 'k' }, ['openai']],
    [{ ANTHROPIC_API_KEY: 'k', AWS_PROFILE: 'dev' }, ['bedrock', 'anthropic']],
    [
      { AWS_ACCESS_KEY_ID: 'a', OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
      ['bedrock', 'openai', 'anthropic'],
    ],
  ])('finds %j → %j', (env, expected) => {
    expect(providersWithCredentials(env, emptyHome)).toEqual(expected);
  });
});
