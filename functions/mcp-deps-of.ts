import type { Agent } from '@agentstep/runtime';
import type { AgentMcp } from '@agentstep/runtime/mcp';

/**
 * The `mcp` dependency of the functions that list or call an agent's MCP tools (model-step,
 * advance-turn, invoke-tool), when the bundled agent has MCP servers: connections opened on first
 * use and kept for the warm function, their header secrets read from Secrets Manager. The MCP
 * client is loaded only then: a function whose agent has no MCP server does not pay to load it.
 */
export async function mcpDepsOf(agent: Pick<Agent, 'mcpServers'>): Promise<{ mcp?: AgentMcp }> {
  if (Object.keys(agent.mcpServers).length === 0) return {};
  const [{ mcpOfAgent }, { credentialSecretOf }] = await Promise.all([
    import('@agentstep/runtime/mcp'),
    import('./credential-secret-of.js'),
  ]);
  const mcp = mcpOfAgent(agent, { secretOf: credentialSecretOf });
  return mcp ? { mcp } : {};
}
