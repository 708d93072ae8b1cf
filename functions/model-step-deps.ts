import { DEFAULT_PRICES, ENV_NAMES, modelProfilesSchema, priceTableSchema } from '@agentstep/protocol';
import { systemClock } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { builtInProviders, createModel } from '@agentstep/runtime/models';
import * as z from 'zod';
import { jsonEnv } from './json-env.js';
import { modelApiKey } from './model-api-key.js';
import { toolsEnvSchema } from './tools-env-schema.js';
import { approvalRulesFromEnv, toolsFromEnv } from './tools-from-env.js';

const env = toolsEnvSchema
  .extend({
    [ENV_NAMES.toolsFunction]: z.string().min(1),
    [ENV_NAMES.model]: z.string().min(1),
    [ENV_NAMES.modelScript]: z.string().optional(),
    /** Named model profiles, as JSON (`modelProfilesSchema`). */
    [ENV_NAMES.modelProfiles]: jsonEnv(modelProfilesSchema, '{}'),
    [ENV_NAMES.modelBaseUrl]: z.string().url().optional(),
    /** A Secrets Manager secret whose plain-text value is the provider's API key. */
    [ENV_NAMES.modelApiKeySecret]: z.string().min(1).optional(),
    [ENV_NAMES.instructions]: z.string().optional(),
    [ENV_NAMES.maxConcurrency]: z.coerce.number().int().min(1).max(40).default(10),
    /** Prices merged over the defaults, as JSON (`priceTableSchema`). */
    [ENV_NAMES.prices]: jsonEnv(priceTableSchema, '{}'),
  })
  .parse(process.env);
const tools = toolsFromEnv(env);
const approvals = approvalRulesFromEnv(env, tools);
const toolsFunction = env[ENV_NAMES.toolsFunction];
const instructions = env[ENV_NAMES.instructions];
const defaultModel = env[ENV_NAMES.model];
const connection = {
  baseURL: env[ENV_NAMES.modelBaseUrl],
  apiKey: await modelApiKey(env[ENV_NAMES.modelApiKeySecret]),
};

const providers = builtInProviders();

/**
 * A model by its name, resolved through the provider registry; one on the default model's provider
 * shares its base URL and API key.
 */
function modelOf(model: string) {
  const sameProvider = providers.providerOf(model) === providers.providerOf(defaultModel);
  return createModel(
    {
      model,
      script: env[ENV_NAMES.modelScript],
      scriptSource: ENV_NAMES.modelScript,
      ...(sameProvider ? connection : {}),
    },
    providers,
  );
}

/** ModelStep's dependencies from the environment, shared by the functions that take model steps. */
export const modelStepDeps = {
  ...dynamoStores(env[ENV_NAMES.table]),
  clock: systemClock,
  model: modelOf(defaultModel),
  models: Object.fromEntries(
    Object.entries(env[ENV_NAMES.modelProfiles]).map(([name, model]) => [name, modelOf(model)]),
  ),
  tools: approvals.toolset.descriptions,
  approvals,
  targetOf: () => toolsFunction,
  sequentialTools: new Set(tools.filter((tool) => tool.sequential).map((tool) => tool.name)),
  maxConcurrency: env[ENV_NAMES.maxConcurrency],
  prices: { ...DEFAULT_PRICES, ...env[ENV_NAMES.prices] },
  ...(instructions ? { instructions } : {}),
};
