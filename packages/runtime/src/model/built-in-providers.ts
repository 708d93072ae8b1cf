import { anthropicProvider } from './anthropic-provider.js';
import { bedrockProvider } from './bedrock-provider.js';
import { openAIProvider } from './openai-provider.js';
import { ProviderRegistry } from './provider-registry.js';

/**
 * A new registry holding the built-in providers (`bedrock`, `openai`, `anthropic`, in that order),
 * to which a caller may add its own without touching anyone else's. Loads every provider's SDK.
 */
export function builtInProviders(): ProviderRegistry {
  return new ProviderRegistry([bedrockProvider, openAIProvider, anthropicProvider]);
}
