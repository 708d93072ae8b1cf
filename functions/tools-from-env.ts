import { ENV_NAMES } from '@agentstep/protocol';
import { type ApprovalRules, createToolset, type Tool } from '@agentstep/runtime';
import { lambdaTool } from '@agentstep/runtime/lambda-tool';
import { type BuiltInToolsConfig, builtInTools } from '@agentstep/runtime/tools';
import type * as z from 'zod';
import type { toolsEnvSchema } from './tools-env-schema.js';

/** The agent's tools as the environment names them: built-in toolsets, then Lambda tools. */
export function toolsFromEnv(env: z.output<typeof toolsEnvSchema>, config: BuiltInToolsConfig = {}): Tool[] {
  return [
    ...builtInTools(env[ENV_NAMES.toolsets], { httpAllowHosts: env[ENV_NAMES.httpAllowHosts], ...config }),
    ...env[ENV_NAMES.lambdaTools].map((spec) => lambdaTool(spec)),
  ];
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
