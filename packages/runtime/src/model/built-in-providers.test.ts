import { describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic-model.js';
import { BedrockModel } from './bedrock-model.js';
import { builtInProviders } from './built-in-providers.js';
import { OpenAIModel } from './openai-model.js';

describe('builtInProviders', () => {
  it('registers bedrock, openai and anthropic, in that order, the last two with their key variables', () => {
    expect(builtInProviders().providers.map(({ name, keyVariable }) => [name, keyVariable])).toEqual([
      ['bedrock', undefined],
      ['openai', 'OPENAI_API_KEY'],
      ['anthropic', 'ANTHROPIC_API_KEY'],
    ]);
  });

  it.each([
    ['bedrock:amazon.nova-lite-v1:0', BedrockModel],
    ['openai:gpt-4o', OpenAIModel],
    ['anthropic:claude-haiku-4-5', AnthropicModel],
  ])('resolves %s to its adapter, named by the id', (id, adapter) => {
    const model = builtInProviders().model(id, { apiKey: 'key', baseURL: 'http://127.0.0.1:9' });
    expect(model).toBeInstanceOf(adapter);
    expect(model.id).toBe(id);
  });

  it('gives each caller a registry of its own', () => {
    builtInProviders().register({
      name: 'mine',
      description: 'd',
      model: () => ({ id: 'x', stream: async function* () {} }),
    });
    expect(builtInProviders().providerOf('mine:m')).toBeUndefined();
  });
});
