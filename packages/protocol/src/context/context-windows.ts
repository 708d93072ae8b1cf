import { modelTableEntry } from '../usage/model-table-entry.js';

/**
 * The input tokens a request to each well-known model of the built-in providers may hold (its
 * context window, or its input limit where the provider gives one apart, as for GPT-5), as
 * published in November 2026. Keys are model ids (`openai:gpt-4o`); `*` matches any run of
 * characters. An agent's `context.windowTokens` (`--context-window`) overrides it; a model that is
 * not here has no known window, and its context is not compacted unless one is given.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'anthropic:claude-*': 200_000,
  'bedrock:*anthropic.claude-*': 200_000,
  'bedrock:*amazon.nova-premier*': 1_000_000,
  'bedrock:*amazon.nova-pro*': 300_000,
  'bedrock:*amazon.nova-lite*': 300_000,
  'bedrock:*amazon.nova-micro*': 128_000,
  'bedrock:*meta.llama3-1*': 128_000,
  'bedrock:*meta.llama3-2*': 128_000,
  'bedrock:*meta.llama3-3*': 128_000,
  'bedrock:*mistral.mistral-large-2407*': 128_000,
  'bedrock:*openai.gpt-oss*': 128_000,
  'openai:gpt-5*': 272_000,
  'openai:gpt-4.1*': 1_047_576,
  'openai:gpt-4o*': 128_000,
  'openai:gpt-4-turbo*': 128_000,
  'openai:gpt-3.5-turbo*': 16_385,
  'openai:o1*': 200_000,
  'openai:o1-mini*': 128_000,
  'openai:o3*': 200_000,
  'openai:o4-mini*': 200_000,
  'openai:gpt-oss*': 131_072,
};

/** The context window of a model by its id, from {@link CONTEXT_WINDOWS}; `undefined` when unknown. */
export function contextWindowOf(modelId: string): number | undefined {
  return modelTableEntry(CONTEXT_WINDOWS, modelId);
}
