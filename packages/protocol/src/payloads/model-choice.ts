/** The model providers a model id can name, as `<provider>:<model>`. */
export const MODEL_PROVIDERS = ['bedrock', 'openai', 'anthropic'] as const;

/** A model provider. */
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** The model a scripted run plays (a script, not a provider). */
export const SCRIPTED_MODEL = 'scripted';

/** A model choice split into its provider and the provider's model id; `undefined` when it names none. */
export function providerModel(choice: string): { provider: ModelProvider; modelId: string } | undefined {
  const colon = choice.indexOf(':');
  const provider = choice.slice(0, colon);
  const modelId = choice.slice(colon + 1);
  if (colon < 0 || modelId === '' || !(MODEL_PROVIDERS as readonly string[]).includes(provider))
    return undefined;
  return { provider: provider as ModelProvider, modelId };
}
