import { ENV_NAMES } from '@agentstep/protocol';
import { type Agent, type ApprovalRules, createToolset, type Tool } from '@agentstep/runtime';
import { type AgentToolsConfig, toolsOfAgent } from '@agentstep/runtime/tools';
import type * as z from 'zod';
import { credentialSecretOf } from './credential-secret-of.js';
import type { toolsEnvSchema } from './tools-env-schema.js';

/**
 * The agent's tools: the built-in toolsets the environment names, then the agent's own tools (when
 * the function was bundled with its agent file), then the Lambda tools, then its remote A2A agents'
 * (their header secrets read from Secrets Manager when a call is sent).
 */
export function toolsFromEnv(
  env: z.output<typeof toolsEnvSchema>,
  config: Omit<AgentToolsConfig, 'secretOf'> = {},
  agent: Pick<Agent, 'tools' | 'lambdaTools'> & Partial<Pick<Agent, 'a2aAgents'>> = {
    tools: [],
    lambdaTools: [],
  },
): Tool[] {
  const offered = {
    toolsets: env[ENV_NAMES.toolsets],
    fetchHosts: env[ENV_NAMES.httpAllowHosts],
    tools: agent.tools,
    lambdaTools: [...agent.lambdaTools, ...env[ENV_NAMES.lambdaTools]],
    a2aAgents: agent.a2aAgents ?? [],
  };
  return toolsOfAgent(offered, { ...config, secretOf: credentialSecretOf });
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
