import type { Agent } from '@agentstep/runtime';
import { type AgentMcp, mcpOfAgent } from '@agentstep/runtime/mcp';
import { mcpSecretOf } from './mcp-secret-of.js';

/**
 * The `mcp` dependency of the functions that list or call an agent's MCP tools (model-step,
 * advance-turn, invoke-tool), when the bundled agent has MCP servers: connections opened on first
 * use and kept for the warm function, their header secrets read from Secrets Manager.
 */
export function mcpDepsOf(agent: Pick<Agent, 'mcpServers'>): { mcp?: AgentMcp } {
  const mcp = mcpOfAgent(agent, { secretOf: mcpSecretOf });
  return mcp ? { mcp } : {};
}
