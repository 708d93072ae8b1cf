import { budgetSchema } from '@agentstep/protocol';
import { systemClock } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import * as z from 'zod';
import { jsonEnv } from '../json-env.js';
import { tableEnvSchema } from '../table-env-schema.js';
import { createHandler } from './handler.js';

const env = tableEnvSchema
  .extend({
    AGENTSTEP_MAX_STEPS: z.coerce.number().int().min(1).optional(),
    AGENTSTEP_STEPS_PER_EXECUTION: z.coerce.number().int().min(1).optional(),
    /** The deployment's default budget, as JSON (`budgetSchema`). */
    AGENTSTEP_BUDGET: jsonEnv(budgetSchema, '{}'),
  })
  .parse(process.env);
export const handler = createHandler({
  ...dynamoStores(env.AGENTSTEP_TABLE),
  clock: systemClock,
  budget: env.AGENTSTEP_BUDGET,
  limits: {
    ...(env.AGENTSTEP_MAX_STEPS ? { maxSteps: env.AGENTSTEP_MAX_STEPS } : {}),
    ...(env.AGENTSTEP_STEPS_PER_EXECUTION ? { stepsPerExecution: env.AGENTSTEP_STEPS_PER_EXECUTION } : {}),
  },
});
