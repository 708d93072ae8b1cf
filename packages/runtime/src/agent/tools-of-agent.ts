import { lambdaTool } from '../lambda/lambda-tool.js';
import { type BuiltInToolsConfig, builtInTools } from '../tools/built-in-tools.js';
import type { Tool } from '../tools/define-tool.js';
import type { Agent } from './define-agent.js';

/**
 * Every tool an agent offers, wherever it runs: its built-in toolsets (`http_fetch` limited to its
 * `fetchHosts`), its own tools, then its Lambda tools. `config` says what the toolsets run on there.
 */
export function toolsOfAgent(
  agent: Pick<Agent, 'toolsets' | 'fetchHosts' | 'tools' | 'lambdaTools'>,
  config: Omit<BuiltInToolsConfig, 'httpAllowHosts'> = {},
): Tool[] {
  return [
    ...builtInTools(agent.toolsets, { ...config, httpAllowHosts: agent.fetchHosts }),
    ...agent.tools,
    ...agent.lambdaTools.map((spec) => lambdaTool(spec)),
  ];
}
