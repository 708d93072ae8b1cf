import { describeTool } from '@agentstep/protocol';
import { type AgentMcp, listMcpTools, mcpTool } from '@agentstep/runtime/mcp';
import type { CliIo } from '../io/cli-io.js';

/**
 * Lists the tools of every server of `mcp` as a turn's first step does and prints each as the model
 * sees it: its name (`SERVER__TOOL`) and description on one line, or with `json` one JSON object a
 * line (`name`, `description`, `parameters` (JSON Schema), `approval`, `timeoutMs`). What kept
 * tools out goes to stderr, a line each. Returns 1 when a server gave no list (it could not be
 * reached, or did not list its tools), else 0.
 */
export async function printMcpTools(
  mcp: AgentMcp,
  json: boolean,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const { tools, problems, unlisted } = await listMcpTools(mcp.servers, mcp.connections);
  for (const problem of problems) io.stderr(`agentstep mcp: ${problem}\n`);
  for (const entry of tools) {
    const description = describeTool(mcpTool(entry, mcp.connections));
    io.stdout(
      json
        ? `${JSON.stringify({ ...description, approval: entry.approval, timeoutMs: entry.timeoutMs })}\n`
        : `${description.name}  ${oneLine(description.description)}\n`,
    );
  }
  return unlisted.length > 0 ? 1 : 0;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
