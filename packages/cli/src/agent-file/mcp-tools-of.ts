import type { Tool } from '@agentstep/runtime';
import { listMcpTools, type McpServerSpec, mcpTool } from '@agentstep/runtime/mcp';
import { localMcp } from '../local/local-mcp.js';
import type { LoadedAgentFile } from './load-agent-file.js';

/**
 * The tools of the agent's MCP servers (the agent file's, `servers` over those of the same name),
 * listed as a turn's first step lists them, for a command that does not run the agent: what they
 * offer and the arguments they take. A tool named as one of the agent's own (`ownNames`) is left
 * out, as in a turn. The connections are closed before this returns, so the tools cannot be
 * called. Each server that cannot be reached, and each tool skipped, is one `notice`.
 */
export async function mcpToolsOf(
  ownNames: readonly string[],
  loaded: LoadedAgentFile | undefined,
  servers: Readonly<Record<string, McpServerSpec>>,
  notice: (text: string) => void,
): Promise<Tool[]> {
  // As a local run has them: the secrets its servers' headers name are environment variables.
  const mcp = localMcp({ loadedAgent: loaded, mcpServers: servers });
  if (mcp === undefined) return [];
  try {
    const { tools, problems } = await listMcpTools(mcp.servers, mcp.connections);
    for (const problem of problems) notice(problem);
    return tools
      .filter(({ name }) => !ownNames.includes(name))
      .map((entry) => mcpTool(entry, mcp.connections));
  } finally {
    await mcp.connections.close();
  }
}
