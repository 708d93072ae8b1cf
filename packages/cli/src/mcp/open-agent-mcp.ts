import type { AgentMcp } from '@agentstep/runtime/mcp';
import type { AgentFlags } from '../agent-file/agent-flags.js';
import { AGENT_FILE, loadAgentFile } from '../agent-file/load-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import { localMcp } from '../local/local-mcp.js';
import { UsageError } from '../usage-error.js';

/**
 * The MCP servers of the agent as a local turn has them (its agent file's, and `--mcp`'s over those
 * of the same name), with connections opened on first use (close them), where a secret is the
 * environment variable it names; `notice` hears which agent file it is. An agent without MCP
 * servers is a UsageError.
 */
export async function openAgentMcp(
  flags: AgentFlags,
  io: Pick<CliIo, 'workingDir'>,
  notice: (text: string) => void,
): Promise<AgentMcp> {
  const loaded = await loadAgentFile(flags.agentFile, io.workingDir);
  if (loaded !== undefined) notice(`agent ${loaded.agent.name} (${loaded.file})`);
  const mcp = localMcp({ loadedAgent: loaded, mcpServers: flags.mcpServers });
  if (mcp === undefined)
    throw new UsageError(
      `the agent has no MCP server: give --mcp NAME=URL, or an agent file (${AGENT_FILE} here, or --agent FILE) with mcpServers.`,
    );
  return mcp;
}
