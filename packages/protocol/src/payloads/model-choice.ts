import * as z from 'zod';

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

/**
 * A model as `--model` names it, `scripted` or `<provider>:<model>`, where the provider is one of
 * `providers` (the built-in ones and a user's own, by name).
 */
export function modelChoiceAmong(providers: readonly string[]) {
  return z.string().refine(
    (choice) => {
      const colon = choice.indexOf(':');
      return (
        choice === SCRIPTED_MODEL ||
        (colon > 0 && colon < choice.length - 1 && providers.includes(choice.slice(0, colon)))
      );
    },
    {
      error: (issue) =>
        `expected "${SCRIPTED_MODEL}" or ${providers.map((provider) => `"${provider}:<model>"`).join(', ')}, received ${JSON.stringify(issue.input)}`,
    },
  );
}

/** A model as `--model` names it among the built-in providers: `scripted`, or `<provider>:<model>`. */
export const modelChoiceSchema = modelChoiceAmong(MODEL_PROVIDERS);

/**
 * Named model profiles, as an agent's `REQUIRES "name"` picks one: each name (any text but empty)
 * to a model as `--model` names it.
 */
export const modelProfilesSchema = z.record(z.string().min(1), modelChoiceSchema);

/** Named model profiles: name → model. */
export type ModelProfiles = z.infer<typeof modelProfilesSchema>;
