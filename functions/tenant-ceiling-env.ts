import { tenantCeilingSchema } from '@agentstep/protocol';
import type { Ceiling } from '@agentstep/runtime';
import { jsonEnv } from './json-env.js';

/** `AGENTSTEP_TENANT_CEILING`: what every tenant may spend on models, as JSON (decision 0043). */
export const tenantCeilingEnv = jsonEnv(tenantCeilingSchema, '{}').transform(
  ({ usdPerDay, usdPerMonth }): Ceiling => ({
    ...(usdPerDay === undefined ? {} : { usdPerDay }),
    ...(usdPerMonth === undefined ? {} : { usdPerMonth }),
  }),
);
