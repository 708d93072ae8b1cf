import type { Model } from './model.js';

/** Where a provider's models connect, as the user configured it; a provider uses what applies to it. */
export interface ProviderConnection {
  /** The server's base URL. @default the provider's API */
  baseURL?: string | undefined;
  /** The API key. @default what the provider's SDK reads (its `keyVariable`) */
  apiKey?: string | undefined;
}

/**
 * A model provider, as `<name>:<model>` model ids name it: the built-in `bedrock`, `openai` and
 * `anthropic`, or a user's own, registered in a {@link ProviderRegistry} the same way.
 */
export interface Provider {
  /** How model ids name it: letters, digits and `-`, from a letter (`gemini` in `gemini:pro`). */
  readonly name: string;
  /** One line for help: what it reaches and where its credentials come from. */
  readonly description: string;
  /** The environment variable its API key is read from, if it takes one (`OPENAI_API_KEY`). */
  readonly keyVariable?: string | undefined;
  /** The model `modelId` names on this provider, its `id` `<name>:<modelId>`. */
  model(modelId: string, connection: ProviderConnection): Model;
}
