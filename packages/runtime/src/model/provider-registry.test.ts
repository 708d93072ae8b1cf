import { describe, expect, it } from 'vitest';
import type { Model } from './model.js';
import type { Provider, ProviderConnection } from './provider.js';
import { ProviderRegistry } from './provider-registry.js';

/** A provider whose models record what they were made from. */
function recordingProvider(name: string): Provider & { made: [string, ProviderConnection][] } {
  const made: [string, ProviderConnection][] = [];
  return {
    name,
    description: `${name} for tests`,
    made,
    model: (modelId, connection): Model => {
      made.push([modelId, connection]);
      return { id: `${name}:${modelId}`, stream: async function* () {} };
    },
  };
}

describe('ProviderRegistry', () => {
  it('resolves <provider>:<model> through the provider, the model id being all after the first colon', () => {
    const ollama = recordingProvider('ollama');
    const registry = new ProviderRegistry([recordingProvider('openai'), ollama]);
    const model = registry.model('ollama:llama3.1:8b', { baseURL: 'http://localhost:11434/v1' });
    expect(model.id).toBe('ollama:llama3.1:8b');
    expect(ollama.made).toEqual([['llama3.1:8b', { baseURL: 'http://localhost:11434/v1' }]]);
  });

  it('marks a provider’s model whose usage may be unknown unless it says otherwise, streaming through it', async () => {
    const registry = new ProviderRegistry([recordingProvider('ollama')]);
    const model = registry.model('ollama:m');
    expect(model.usageMayBeUnknown).toBe(true);
    const parts = [];
    for await (const part of model.stream({
      system: '',
      messages: [],
      step: 0,
      turnStep: 0,
      stopSequences: [],
    }))
      parts.push(part);
    expect(parts).toEqual([]);
    const scripted: Provider = {
      name: 'fixed',
      description: 'fixed for tests',
      model: () => ({ id: 'fixed:m', usageMayBeUnknown: false, stream: async function* () {} }),
    };
    expect(new ProviderRegistry([scripted]).model('fixed:m').usageMayBeUnknown).toBe(false);
  });

  it('lists its providers in the order they were registered, and finds the one an id names', () => {
    const registry = new ProviderRegistry([recordingProvider('b')]).register(recordingProvider('a'));
    expect(registry.providers.map((provider) => provider.name)).toEqual(['b', 'a']);
    expect(registry.providerOf('a:m')?.name).toBe('a');
    expect([registry.providerOf('a:'), registry.providerOf('a'), registry.providerOf('c:m')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it.each(['gemini:pro', 'gpt-4o', 'openai:', ':gpt'])(
    'refuses %j, naming the registered providers',
    (id) => {
      const registry = new ProviderRegistry([recordingProvider('bedrock'), recordingProvider('openai')]);
      expect(() => registry.model(id)).toThrow(
        `"${id}" names no registered model provider: a model id is "<provider>:<model>", with provider one of bedrock, openai.`,
      );
    },
  );

  it('refuses a provider that is not one, saying which field is wrong', () => {
    const registry = new ProviderRegistry();
    const notOne = { name: 'My:Gateway', description: '', model: 'gpt' } as unknown as Provider;
    const refusal = () => registry.register(notOne);
    expect(refusal).toThrow(
      'Not a model provider: name: must be lower-case letters, digits and "-", from a letter (no ":"); description: Too small: expected string to have >=1 characters; model: must be a function.',
    );
    expect(registry.providers).toEqual([]);
  });

  it('refuses a second provider of the same name', () => {
    const registry = new ProviderRegistry([recordingProvider('openai')]);
    expect(() => registry.register(recordingProvider('openai'))).toThrow(
      'A model provider named "openai" is registered already.',
    );
  });

  it('refuses what a provider returns when it is not a model', () => {
    const broken: Provider = { name: 'broken', description: 'd', model: () => ({}) as Model };
    expect(() => new ProviderRegistry([broken]).model('broken:m')).toThrow(
      'Provider "broken" returned no model for "m": model() must return { id, stream(request) }.',
    );
  });
});
