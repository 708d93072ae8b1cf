import { budgetSchema, ENV_NAMES, runawayLimitsSchema, turnLimitsSchema } from '@agentstep/protocol';
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
    [ENV_NAMES.repeatedCalls]: limitEnv(runawayLimitsSchema.shape.repeatedCalls),
    [ENV_NAMES.stepsWithoutProgress]: limitEnv(runawayLimitsSchema.shape.stepsWithoutProgress),
    /** The deployment's default budget, as JSON (`budgetSchema`). */
    [ENV_NAMES.budget]: jsonEnv(budgetSchema, '{}'),
    [ENV_NAMES.agentVersion]: z.string().min(1).optional(),
  })
  .parse(process.env);
const maxSteps = env[ENV_NAMES.maxSteps];
const stepsPerExecution = env[ENV_NAMES.stepsPerExecution];
const repeatedCalls = env[ENV_NAMES.repeatedCalls];
const stepsWithoutProgress = env[ENV_NAMES.stepsWithoutProgress];
const version = env[ENV_NAMES.agentVersion];

export const handler = createHandler({
  ...tableStepDeps,
  budget: env[ENV_NAMES.budget],
  ...(version === undefined ? {} : { version }),
  limits: {
    ...(maxSteps ? { maxSteps } : {}),
    ...(stepsPerExecution ? { stepsPerExecution } : {}),
    ...(repeatedCalls ? { repeatedCalls } : {}),
    ...(stepsWithoutProgress ? { stepsWithoutProgress } : {}),
  },
});
