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

/**
 * What a step's stream yields for a request of it whose usage the provider never reported (the
 * read past the step's end stopped first), when other requests of the step did: no tokens, and
 * the step's usage is then unknown, not the sum of the others.
 */
export const UNREPORTED_USAGE: Readonly<ModelUsage & { unreported: true }> = {
  ...NO_USAGE,
  unreported: true,
};

/** Whether a usage part stands for a request whose usage was never reported. */
export function isUnreported(usage: ModelUsage): boolean {
  return 'unreported' in usage;
}

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
