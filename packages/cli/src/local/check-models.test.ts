import { ProviderRegistry } from '@agentstep/runtime';
import { builtInProviders } from '@agentstep/runtime/models';
import { describe, expect, it } from 'vitest';
import { checkModels } from './check-models.js';
import { parseRunOptions } from './run-options.js';

const BUILT_IN = '"bedrock:<model>", "openai:<model>", "anthropic:<model>"';

describe('checkModels', () => {
  it.each([
    [['--model', 'gpt'], `--model must be "scripted", "replay" or one of ${BUILT_IN}, received "gpt".`],
    [
      ['--model', 'gemini:pro'],
      `--model must be "scripted", "replay" or one of ${BUILT_IN}, received "gemini:pro".`,
    ],
    [
      ['--model-profile', 'fast=gpt-4o'],
      `--model-profile fast: expected "scripted" or ${BUILT_IN}, received "gpt-4o".`,
    ],
    [
      ['--model-profile', 'fast=replay'],
      `--model-profile fast: expected "scripted" or ${BUILT_IN}, received "replay".`,
    ],
  ])('refuses %j, listing the registered providers', (args, message) => {
    expect(() => checkModels(parseRunOptions(args), builtInProviders())).toThrow(message);
  });

  it("takes a registered provider's models, for --model and a profile alike", () => {
    const gemini = {
      name: 'gemini',
      description: 'd',
      model: () => ({ id: 'x', stream: async function* () {} }),
    };
    const providers = new ProviderRegistry([gemini]);
    const options = parseRunOptions(['--model', 'gemini:pro', '--model-profile', 'fast=gemini:flash']);
    expect(() => checkModels(options, providers)).not.toThrow();
    expect(() => checkModels(parseRunOptions(['--model', 'openai:gpt-4o']), providers)).toThrow(
      '--model must be "scripted", "replay" or one of "gemini:<model>", received "openai:gpt-4o".',
    );
  });
});
