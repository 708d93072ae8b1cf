import * as z from 'zod';

/**
 * What a tenant may spend on models per UTC day and per month (decision 0043), in US dollars (from
 * the price table) and in tokens (input + output): the agent's default for every tenant, or one
 * tenant's own.
 */
export const tenantCeilingSchema = z.strictObject({
  usdPerDay: z.number().positive().optional(),
  usdPerMonth: z.number().positive().optional(),
  tokensPerDay: z.number().int().positive().optional(),
  tokensPerMonth: z.number().int().positive().optional(),
});
