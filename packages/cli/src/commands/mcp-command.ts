import type { CliIo } from '../io/cli-io.js';
import { callMcpTool } from '../mcp/call-mcp-tool.js';
import { parseMcpArgs } from '../mcp/mcp-args.js';
import { openAgentMcp } from '../mcp/open-agent-mcp.js';
import { printMcpTools } from '../mcp/print-mcp-tools.js';

/**
 * `agentstep mcp tools [--json] [agent options]`: the agent's MCP tools as the model sees them.
 * `agentstep mcp call SERVER__TOOL [--args JSON] [--json] [agent options]`: one call of one, as a
 * turn makes it. Both connect to the agent's MCP servers as a local turn does (its agent file's
 * and `--mcp`'s, secrets from environment variables, OAuth client credentials included). Exit 0;
 * 1 when a server cannot be reached, or the call fails or its result is an error; 2 when called wrong.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseMcpArgs(args);
  const mcp = await openAgentMcp(parsed.flags, io, (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    return parsed.action === 'tools'
      ? await printMcpTools(mcp, parsed.json, io)
      : await callMcpTool(mcp, parsed, io);
  } finally {
    await mcp.connections.close();
  }
}
