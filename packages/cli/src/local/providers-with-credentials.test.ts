import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider } from '@agentstep/runtime';
import { builtInProviders } from '@agentstep/runtime/models';
import { describe, expect, it } from 'vitest';
import { providersWithCredentials } from './providers-with-credentials.js';

const emptyHome = mkdtempSync(join(tmpdir(), 'home-'));
const builtIn = builtInProviders().providers;

describe('providersWithCredentials', () => {
  it.each([
    [{}, []],
    [{ OPENAI_API_KEY: 'k' }, ['openai']],
    [{ ANTHROPIC_API_KEY: 'k', AWS_PROFILE: 'dev' }, ['bedrock', 'anthropic']],
    [
      { AWS_ACCESS_KEY_ID: 'a', OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
      ['bedrock', 'openai', 'anthropic'],
    ],
  ])('finds %j → %j among the built-in providers', (env, expected) => {
    expect(providersWithCredentials(builtIn, env, emptyHome)).toEqual({
      found: expected,
      sought: ['AWS credentials', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'],
    });
  });

  it("reads a registered provider's own key variable, and skips one that takes no key", () => {
    const model: Provider['model'] = () => ({ id: 'x', stream: async function* () {} });
    const gateway: Provider = { name: 'gateway', description: 'd', keyVariable: 'GATEWAY_KEY', model };
    const local: Provider = { name: 'local', description: 'd', model };
    expect(providersWithCredentials([...builtIn, gateway, local], { GATEWAY_KEY: 'k' }, emptyHome)).toEqual({
      found: ['gateway'],
      sought: ['AWS credentials', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GATEWAY_KEY'],
    });
  });
});
