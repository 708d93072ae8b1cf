import { ENV_NAMES } from '@agentstep/protocol';
import { type Agent, createToolset, systemClock, type ToolContext } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { S3Workspace } from '@agentstep/runtime/s3';
import { callingStateMachineStarter } from '@agentstep/runtime/sfn';
import * as z from 'zod';
import { mcpDepsOf } from '../mcp-deps-of.js';
import { toolsEnvSchema } from '../tools-env-schema.js';
import { toolsFromEnv } from '../tools-from-env.js';
import { createHandler } from './handler.js';

/**
 * The tools function's handler from the environment (built-in toolsets, Lambda tools, the
 * workspace bucket); with `agent` (bundled with the agent's file), running its own tools and its
 * MCP servers' tools too (one connection per server, kept while the function is warm).
 */
export async function handlerFor(agent?: Agent) {
  const env = toolsEnvSchema
    .extend({ [ENV_NAMES.workspaceBucket]: z.string().min(1).optional() })
    .parse(process.env);
  const bucket = env[ENV_NAMES.workspaceBucket];
  const workspace = bucket ? new S3Workspace({ bucket }) : undefined;
  const stores = dynamoStores(env[ENV_NAMES.table]);
  // Sub-agents start on the state machine that invoked this call, as its payload names it.
  const agents = {
    deps: (context: ToolContext) => ({
      ...stores,
      clock: systemClock,
      starter: callingStateMachineStarter(context),
    }),
  };
  const config = { agents, ...(workspace ? { workspace } : {}) };
  return createHandler({
    ...stores,
    toolset: createToolset(toolsFromEnv(env, config, agent)),
    ...(agent ? await mcpDepsOf(agent) : {}),
  });
}
