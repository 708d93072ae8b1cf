import { a2aAgentTool } from '../a2a/a2a-agent-tool.js';
import { lambdaTool } from '../lambda/lambda-tool.js';
import type { SecretLookup } from '../mcp/resolve-headers.js';
import { type BuiltInToolsConfig, builtInTools } from '../tools/built-in-tools.js';
import type { Tool } from '../tools/define-tool.js';
import type { Agent } from './define-agent.js';

/** What an agent's tools run on where it runs. */
export interface AgentToolsConfig extends Omit<BuiltInToolsConfig, 'httpAllowHosts'> {
  /**
   * Reads the secrets the headers of its remote A2A agents name.
   * @default environment variables, as `agentstep run` reads them
   */
  secretOf?: SecretLookup;
}

/**
 * Every tool an agent offers, wherever it runs: its built-in toolsets (`http_fetch` limited to its
 * `fetchHosts`), its own tools, its Lambda tools, then one `NAME__send` per remote A2A agent.
 * `config` says what the toolsets run on there, and where the remote agents' secrets are read.
 */
export function toolsOfAgent(
  agent: Pick<Agent, 'toolsets' | 'fetchHosts' | 'tools' | 'lambdaTools' | 'a2aAgents'>,
  { secretOf = environmentSecret, ...config }: AgentToolsConfig = {},
): Tool[] {
  return [
    ...builtInTools(agent.toolsets, { ...config, httpAllowHosts: agent.fetchHosts }),
    ...agent.tools,
    ...agent.lambdaTools.map((spec) => lambdaTool(spec)),
    ...agent.a2aAgents.map((spec) => a2aAgentTool(spec, { secretOf })),
  ];
}

async function environmentSecret(name: string): Promise<string | undefined> {
  return process.env[name];
}
