import type { ModelPrice } from '@agentstep/protocol';
import type { ModelUsage } from '../model/model-usage.js';

/** What a usage cost at a price, in US dollars. */
export function costOf(price: ModelPrice, usage: ModelUsage): number {
  const uncached = usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens;
  const dollars =
    uncached * price.input +
    usage.cacheReadTokens * (price.cacheRead ?? price.input) +
    usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return dollars / 1_000_000;
}
