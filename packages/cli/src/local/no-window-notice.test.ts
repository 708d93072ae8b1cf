import type { Model } from '@agentstep/runtime';
import { builtInProviders } from '@agentstep/runtime/models';
import { describe, expect, it } from 'vitest';
import type { LoadedModels } from './load-model.js';
import { noWindowNotice } from './no-window-notice.js';
import { parseRunOptions } from './run-options.js';

/** A model that is never called: only its id and window are read. */
const model = (id: string, contextWindow?: number): Model => ({
  id,
  ...(contextWindow === undefined ? {} : { contextWindow }),
  stream: () => {
    throw new Error('not called');
  },
});

function loaded(main: Model, models: Record<string, Model> = {}): LoadedModels {
  return { model: main, models, source: main.id, providers: builtInProviders() };
}

describe('noWindowNotice', () => {
  it('names the provider models without a known window, each once, profiles included', () => {
    const options = parseRunOptions([
      ...['--model', 'openai:llama3.1', '--model-profile', 'same=openai:llama3.1'],
      ...['--model-profile', 'local=openai:qwen3', '--model-profile', 'known=openai:gpt-4o'],
    ]);
    const models = {
      same: model('openai:llama3.1'),
      local: model('openai:qwen3'),
      known: model('openai:gpt-4o'),
    };
    expect(noWindowNotice(options, loaded(model('openai:llama3.1'), models))).toBe(
      'no context window is known for openai:llama3.1, openai:qwen3, so their context is not compacted: set --context-window TOKENS (or context.windowTokens in the agent file).',
    );
  });

  it('says nothing with a window given, a window the provider knows, or a scripted model', () => {
    const local = parseRunOptions(['--model', 'openai:llama3.1']);
    expect(noWindowNotice(local, loaded(model('openai:llama3.1', 32_000)))).toBeUndefined();
    const given = parseRunOptions(['--model', 'openai:llama3.1', '--context-window', '32000']);
    expect(noWindowNotice(given, loaded(model('openai:llama3.1')))).toBeUndefined();
    const scripted = parseRunOptions(['--model-profile', 'fast=scripted']);
    expect(noWindowNotice(scripted, loaded(model('scripted'), { fast: model('scripted') }))).toBeUndefined();
  });
});
