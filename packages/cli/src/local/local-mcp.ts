import type { McpServerSpec } from '@agentstep/runtime/mcp';
import { type AgentMcp, mcpOfAgent } from '@agentstep/runtime/mcp';
import type { LoadedAgentFile } from '../agent-file/load-agent-file.js';

/** Where a local command finds the agent's MCP servers: its agent file, and `--mcp`'s. */
export interface LocalMcpSources {
  loadedAgent?: LoadedAgentFile | undefined;
  mcpServers: Readonly<Record<string, McpServerSpec>>;
}

/** The agent's MCP servers: the agent file's, with `--mcp`'s over those of the same name. */
export function localMcpServers({ loadedAgent, mcpServers }: LocalMcpSources): Record<string, McpServerSpec> {
  return { ...loadedAgent?.agent.mcpServers, ...mcpServers };
}

/**
 * The agent's MCP servers (see {@link localMcpServers}) with connections to them, opened on first
 * use (close them once done); undefined for an agent without any. Locally, a header's secret is
 * the environment variable it names.
 */
export function localMcp(sources: LocalMcpSources): AgentMcp | undefined {
  return mcpOfAgent(
    { mcpServers: localMcpServers(sources) },
    { secretOf: async (name) => process.env[name] },
  );
}
