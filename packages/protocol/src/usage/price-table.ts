import { modelTableEntry } from './model-table-entry.js';
import type { ModelPrice, PriceTable } from './price-table-schema.js';

const claude = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
});
const gpt = (input: number, cached: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: cached,
});

/**
 * List prices (USD per million tokens, standard tier) as published in November 2026, for the
 * models people run most. Prices change: pass your own table (`--prices FILE`, the construct's
 * `prices`) to add models or correct these; it is merged over this one.
 */
export const DEFAULT_PRICES: PriceTable = {
  'anthropic:claude-opus-4-5*': claude(5, 25),
  'anthropic:claude-opus-4*': claude(15, 75),
  'anthropic:claude-sonnet-4*': claude(3, 15),
  'anthropic:claude-haiku-4-5*': claude(1, 5),
  'anthropic:claude-3-5-haiku*': claude(0.8, 4),
  'bedrock:*anthropic.claude-opus-4-5*': claude(5, 25),
  'bedrock:*anthropic.claude-sonnet-4*': claude(3, 15),
  'bedrock:*anthropic.claude-haiku-4-5*': claude(1, 5),
  'bedrock:*amazon.nova-pro*': { input: 0.8, output: 3.2, cacheRead: 0.2 },
  'bedrock:*amazon.nova-lite*': { input: 0.06, output: 0.24, cacheRead: 0.015 },
  'bedrock:*amazon.nova-micro*': { input: 0.035, output: 0.14, cacheRead: 0.00875 },
  'openai:gpt-5*': gpt(1.25, 0.125, 10),
  'openai:gpt-5-mini*': gpt(0.25, 0.025, 2),
  'openai:gpt-5-nano*': gpt(0.05, 0.005, 0.4),
  'openai:gpt-4.1*': gpt(2, 0.5, 8),
  'openai:gpt-4.1-mini*': gpt(0.4, 0.1, 1.6),
  'openai:gpt-4o*': gpt(2.5, 1.25, 10),
  'openai:gpt-4o-mini*': gpt(0.15, 0.075, 0.6),
};

/** The price of a model in `table`, by its id ({@link modelTableEntry}: exact, else the most specific wildcard). */
export function priceOf(table: PriceTable, modelId: string): ModelPrice | undefined {
  return modelTableEntry(table, modelId);
}
