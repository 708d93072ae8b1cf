import type { Agent } from '../agent/define-agent.js';
import { McpConnections } from './mcp-connections.js';
import type { SecretLookup } from './resolve-headers.js';
import type { AgentMcp } from './turn-mcp-tools.js';

/**
 * The agent's MCP servers with connections to them (opened on first use; close them with
 * `connections.close()`), where `secretOf` reads the secrets their headers name; undefined for an
 * agent without MCP servers.
 */
export function mcpOfAgent(
  agent: Pick<Agent, 'mcpServers'>,
  { secretOf }: { secretOf: SecretLookup },
): AgentMcp | undefined {
  if (Object.keys(agent.mcpServers).length === 0) return undefined;
  return { servers: agent.mcpServers, connections: new McpConnections(agent.mcpServers, { secretOf }) };
}
