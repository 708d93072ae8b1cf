import * as z from 'zod';

/**
 * What a tenant may spend on models, in US dollars per UTC day and per month (decision 0043): the
 * agent's default for every tenant, or one tenant's own.
 */
export const tenantCeilingSchema = z.strictObject({
  usdPerDay: z.number().positive().optional(),
  usdPerMonth: z.number().positive().optional(),
});
