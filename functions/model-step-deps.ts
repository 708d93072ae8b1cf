import { contextSettingsSchema, DEFAULT_PRICES, ENV_NAMES, priceTableSchema } from '@agentstep/protocol';
import {
  type Agent,
  ContextCache,
  contextOptions,
  RecentTenantControls,
  systemClock,
  TurnTallies,
} from '@agentstep/runtime';
import { DynamoStepStream, documentClientOf, dynamoStores } from '@agentstep/runtime/dynamo';
import { createModel, providersOfAgent } from '@agentstep/runtime/models';
import * as z from 'zod';
import { jsonEnv } from './json-env.js';
import { mcpDepsOf } from './mcp-deps-of.js';
import { modelApiKey } from './model-api-key.js';
import { tenantCeilingEnv } from './tenant-ceiling-env.js';
import { toolsEnvSchema } from './tools-env-schema.js';
import { approvalRulesFromEnv, toolsFromEnv } from './tools-from-env.js';

const envSchema = toolsEnvSchema.extend({
  [ENV_NAMES.toolsFunction]: z.string().min(1),
  [ENV_NAMES.model]: z.string().min(1),
  [ENV_NAMES.modelScript]: z.string().optional(),
  /**
   * Named model profiles, as JSON: name → model. Any provider's names pass here (the agent's own
   * providers too); the provider registry refuses an unknown one when the model is made.
   */
  [ENV_NAMES.modelProfiles]: jsonEnv(z.record(z.string().min(1), z.string().min(1)), '{}'),
  [ENV_NAMES.modelBaseUrl]: z.string().url().optional(),
  /** A Secrets Manager secret whose plain-text value is the provider's API key. */
  [ENV_NAMES.modelApiKeySecret]: z.string().min(1).optional(),
  [ENV_NAMES.instructions]: z.string().optional(),
  /** How model steps keep the context within the window, as JSON (`contextSettingsSchema`). */
  [ENV_NAMES.context]: jsonEnv(contextSettingsSchema, '{}'),
  [ENV_NAMES.maxConcurrency]: z.coerce.number().int().min(1).max(40).default(10),
  /** Prices merged over the defaults, as JSON (`priceTableSchema`). */
  [ENV_NAMES.prices]: jsonEnv(priceTableSchema, '{}'),
  /** What every tenant may spend on models, as JSON (`tenantCeilingSchema`). */
  [ENV_NAMES.tenantCeiling]: tenantCeilingEnv,
});

/**
 * ModelStep's dependencies from the environment, shared by the functions that take model steps;
 * the model's text goes, as it streams, to draft items the API's streams read.
 * With `agent` (the function bundled with the agent's file), its own tools are described to the
 * model, its own providers may serve the models, its MCP servers' tools are listed for each turn
 * and its instructions are the system prompt's (unless the environment gives others: the
 * construct's `instructions` prop); the environment says everything else, the context settings
 * included (their summary model made as a profile's is).
 */
export async function modelStepDeps(
  agent: Pick<Agent, 'tools' | 'lambdaTools' | 'providers' | 'instructions' | 'mcpServers'> = {
    tools: [],
    lambdaTools: [],
    providers: [],
    mcpServers: {},
  },
) {
  const env = envSchema.parse(process.env);
  const tools = toolsFromEnv(env, {}, agent);
  const approvals = approvalRulesFromEnv(env, tools);
  const toolsFunction = env[ENV_NAMES.toolsFunction];
  const instructions = env[ENV_NAMES.instructions] ?? agent.instructions;
  const defaultModel = env[ENV_NAMES.model];
  const connection = {
    baseURL: env[ENV_NAMES.modelBaseUrl],
    apiKey: await modelApiKey(env[ENV_NAMES.modelApiKeySecret]),
  };
  const providers = providersOfAgent(agent);
  // A model on the default model's provider shares its base URL and API key.
  const modelOf = (model: string) =>
    createModel(
      {
        model,
        script: env[ENV_NAMES.modelScript],
        scriptSource: ENV_NAMES.modelScript,
        ...(providers.providerOf(model) === providers.providerOf(defaultModel) ? connection : {}),
      },
      providers,
    );
  const settings = env[ENV_NAMES.context];
  const summaryModel = settings.summaryModel === undefined ? undefined : modelOf(settings.summaryModel);
  const context = contextOptions(settings, summaryModel);
  const client = documentClientOf({});
  const stores = dynamoStores(env[ENV_NAMES.table], client);
  // The model's text as it streams, as drafts the API's streams read (docs/decisions/0025).
  const stream = new DynamoStepStream({ tableName: env[ENV_NAMES.table], client });
  return {
    ...stores,
    log: stream.watch(stores.log),
    stream,
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
    context,
    contextCache: new ContextCache(),
    turnTallies: new TurnTallies(),
    // Every step reserves within its tenant's ceiling (the default, or one an operator set), and a
    // suspended tenant's turn stops: its controls read at most once a second per warm function.
    ceilings: {
      tenantSpend: stores.tenantSpend,
      tenantControls: new RecentTenantControls(stores.tenantControls, systemClock),
      tenantCeiling: env[ENV_NAMES.tenantCeiling],
    },
    ...(await mcpDepsOf(agent)),
    ...(instructions ? { instructions } : {}),
  };
}
