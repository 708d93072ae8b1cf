import { ENV_NAMES } from '@agentstep/protocol';
import { type Agent, type ApprovalRules, createToolset, type Tool } from '@agentstep/runtime';
import { type BuiltInToolsConfig, toolsOfAgent } from '@agentstep/runtime/tools';
import type * as z from 'zod';
import type { toolsEnvSchema } from './tools-env-schema.js';

/**
 * The agent's tools: the built-in toolsets the environment names, then the agent's own tools (when
 * the function was bundled with its agent file), then the Lambda tools.
 */
export function toolsFromEnv(
  env: z.output<typeof toolsEnvSchema>,
  config: Omit<BuiltInToolsConfig, 'httpAllowHosts'> = {},
  agent: Pick<Agent, 'tools' | 'lambdaTools'> = { tools: [], lambdaTools: [] },
): Tool[] {
  const offered = {
    toolsets: env[ENV_NAMES.toolsets],
    fetchHosts: env[ENV_NAMES.httpAllowHosts],
    tools: agent.tools,
    lambdaTools: [...agent.lambdaTools, ...env[ENV_NAMES.lambdaTools]],
  };
  return toolsOfAgent(offered, config);
}

/** Which calls wait for approval, as the environment says, over the agent's tools. */
export function approvalRulesFromEnv(
  env: z.output<typeof toolsEnvSchema>,
  tools: readonly Tool[],
): ApprovalRules {
  return {
    toolset: createToolset(tools),
    tools: env[ENV_NAMES.approvals],
    timeoutMs: env[ENV_NAMES.approvalTimeout] * 1000,
  };
}
