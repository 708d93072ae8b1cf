import { budgetSchema, ENV_NAMES, turnLimitsSchema } from '@agentstep/protocol';
import * as z from 'zod';
import { jsonEnv } from '../json-env.js';
import { tableStepDeps } from '../table-step-deps.js';
import { createHandler } from './handler.js';

/** A whole number from the environment, checked by the limit's own schema. */
const limitEnv = (limit: z.ZodNumber) => z.coerce.number().pipe(limit).optional();

const env = z
  .object({
    [ENV_NAMES.maxSteps]: limitEnv(turnLimitsSchema.shape.maxSteps),
    [ENV_NAMES.stepsPerExecution]: limitEnv(turnLimitsSchema.shape.stepsPerExecution),
    /** The deployment's default budget, as JSON (`budgetSchema`). */
    [ENV_NAMES.budget]: jsonEnv(budgetSchema, '{}'),
  })
  .parse(process.env);
const maxSteps = env[ENV_NAMES.maxSteps];
const stepsPerExecution = env[ENV_NAMES.stepsPerExecution];

export const handler = createHandler({
  ...tableStepDeps,
  budget: env[ENV_NAMES.budget],
  limits: { ...(maxSteps ? { maxSteps } : {}), ...(stepsPerExecution ? { stepsPerExecution } : {}) },
});
