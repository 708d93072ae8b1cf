import { tenantCeilingSchema } from '@agentstep/protocol';
import { ceilingOf } from '@agentstep/runtime';
import { jsonEnv } from './json-env.js';

/** `AGENTSTEP_TENANT_CEILING`: what every tenant may spend on models, as JSON (decision 0043). */
export const tenantCeilingEnv = jsonEnv(tenantCeilingSchema, '{}').transform(ceilingOf);
