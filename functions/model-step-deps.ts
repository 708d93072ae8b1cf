import { priceTableSchema } from '@agentstep/protocol';
import { createToolset, DEFAULT_PRICES, systemClock } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { createModel } from '@agentstep/runtime/models';
import * as z from 'zod';
import { jsonEnv } from './json-env.js';
import { modelApiKey } from './model-api-key.js';
import { toolsEnvSchema } from './tools-env-schema.js';
import { toolsFromEnv } from './tools-from-env.js';

const env = toolsEnvSchema
  .extend({
    AGENTSTEP_TOOLS_FUNCTION: z.string().min(1),
    AGENTSTEP_MODEL: z.string().min(1),
    AGENTSTEP_MODEL_SCRIPT: z.string().optional(),
    AGENTSTEP_MODEL_BASE_URL: z.string().url().optional(),
    /** A Secrets Manager secret whose plain-text value is the provider's API key. */
    AGENTSTEP_MODEL_API_KEY_SECRET: z.string().min(1).optional(),
    AGENTSTEP_INSTRUCTIONS: z.string().optional(),
    AGENTSTEP_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(40).default(10),
    /** Prices merged over the defaults, as JSON (`priceTableSchema`). */
    AGENTSTEP_PRICES: jsonEnv(priceTableSchema, '{}'),
  })
  .parse(process.env);
const tools = toolsFromEnv(env);

/** ModelStep's dependencies from the environment, shared by the functions that take model steps. */
export const modelStepDeps = {
  ...dynamoStores(env.AGENTSTEP_TABLE),
  clock: systemClock,
  model: createModel({
    model: env.AGENTSTEP_MODEL,
    script: env.AGENTSTEP_MODEL_SCRIPT,
    scriptSource: 'AGENTSTEP_MODEL_SCRIPT',
    baseURL: env.AGENTSTEP_MODEL_BASE_URL,
    apiKey: await modelApiKey(env.AGENTSTEP_MODEL_API_KEY_SECRET),
  }),
  tools: createToolset(tools).descriptions,
  targetOf: () => env.AGENTSTEP_TOOLS_FUNCTION,
  sequentialTools: new Set(tools.filter((tool) => tool.sequential).map((tool) => tool.name)),
  maxConcurrency: env.AGENTSTEP_MAX_CONCURRENCY,
  prices: { ...DEFAULT_PRICES, ...env.AGENTSTEP_PRICES },
  ...(env.AGENTSTEP_INSTRUCTIONS ? { instructions: env.AGENTSTEP_INSTRUCTIONS } : {}),
};
