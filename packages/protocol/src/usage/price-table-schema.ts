import * as z from 'zod';

const perMillion = z.number().nonnegative();

/**
 * A model's prices in US dollars per million tokens. Cache reads and writes default to the input
 * price where a provider has no separate one.
 */
export const modelPriceSchema = z.object({
  input: perMillion,
  output: perMillion,
  cacheRead: perMillion.optional(),
  cacheWrite: perMillion.optional(),
});

/** Prices by model id (`openai:gpt-4o`); `*` in a key matches any run of characters. */
export const priceTableSchema = z.record(z.string().min(1), modelPriceSchema);

/** A model's prices. */
export type ModelPrice = z.infer<typeof modelPriceSchema>;
/** Prices by model id. */
export type PriceTable = z.infer<typeof priceTableSchema>;
