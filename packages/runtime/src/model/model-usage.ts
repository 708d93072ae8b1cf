import * as z from 'zod';

const tokens = z.number().int().nonnegative();

/**
 * Tokens one provider request used. `inputTokens` counts the whole prompt, including the tokens
 * read from (`cacheReadTokens`) and written to (`cacheWriteTokens`) the prompt cache.
 */
export const modelUsageSchema = z.object({
  inputTokens: tokens,
  outputTokens: tokens,
  cacheReadTokens: tokens.default(0),
  cacheWriteTokens: tokens.default(0),
});

/** Tokens one provider request (or one step) used. */
export type ModelUsage = z.output<typeof modelUsageSchema>;

/** No tokens. */
export const NO_USAGE: Readonly<ModelUsage> = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

/** The sum of two usages. */
export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/**
 * The usage of a provider that counts cache reads and writes apart from its input tokens
 * (Anthropic, Bedrock); ours include them. Missing counts are 0.
 */
export function usageWithCacheApart(counts: {
  uncachedInput?: number | null | undefined;
  output?: number | null | undefined;
  cacheRead?: number | null | undefined;
  cacheWrite?: number | null | undefined;
}): ModelUsage {
  const cacheReadTokens = counts.cacheRead ?? 0;
  const cacheWriteTokens = counts.cacheWrite ?? 0;
  return {
    inputTokens: (counts.uncachedInput ?? 0) + cacheReadTokens + cacheWriteTokens,
    outputTokens: counts.output ?? 0,
    cacheReadTokens,
    cacheWriteTokens,
  };
}
