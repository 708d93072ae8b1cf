import { windowOf } from '@agentstep/runtime';
import type { LoadedModels } from './load-model.js';
import type { RunOptions } from './run-options.js';

/**
 * What a run says once when a provider's model it runs has no known context window and none is
 * given (`--context-window`, `context.windowTokens`): that model's context is never compacted
 * (decision 0035). `undefined` when every such model has one; scripted and replayed models never
 * overflow a window, so they are not named.
 */
export function noWindowNotice(options: RunOptions, loaded: LoadedModels): string | undefined {
  if (options.context.windowTokens !== undefined) return undefined;
  const named = [
    [options.model, loaded.model],
    ...Object.entries(options.modelProfiles).map(([name, model]) => [model, loaded.models[name]] as const),
  ] as const;
  const unknown = new Set<string>();
  for (const [name, model] of named) {
    if (model === undefined || loaded.providers.providerOf(name) === undefined) continue;
    if (windowOf(model) === undefined) unknown.add(model.id);
  }
  if (unknown.size === 0) return undefined;
  const ids = [...unknown].join(', ');
  return `no context window is known for ${ids}, so ${unknown.size === 1 ? 'its' : 'their'} context is not compacted: set --context-window TOKENS (or context.windowTokens in the agent file).`;
}
