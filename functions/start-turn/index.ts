import { dynamoStores } from '@agentstep/runtime/dynamo';
import { z } from 'zod';
import { tableEnvSchema } from '../env.js';
import { createHandler } from './handler.js';

const env = tableEnvSchema
  .extend({
    AGENTSTEP_MAX_STEPS: z.coerce.number().int().min(1).optional(),
    AGENTSTEP_STEPS_PER_EXECUTION: z.coerce.number().int().min(1).optional(),
  })
  .parse(process.env);
export const handler = createHandler({
  ...dynamoStores(env.AGENTSTEP_TABLE),
  limits: {
    ...(env.AGENTSTEP_MAX_STEPS ? { maxSteps: env.AGENTSTEP_MAX_STEPS } : {}),
    ...(env.AGENTSTEP_STEPS_PER_EXECUTION ? { stepsPerExecution: env.AGENTSTEP_STEPS_PER_EXECUTION } : {}),
  },
});
