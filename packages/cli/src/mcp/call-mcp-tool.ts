import { validateArgs } from '@agentstep/runtime';
import { type AgentMcp, listMcpTools, mcpTool, mcpToolOutput } from '@agentstep/runtime/mcp';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

/**
 * Calls the MCP tool `name` (`SERVER__TOOL`) once, as a turn's call does: the tool as its server
 * lists it (its allowlist applied), its arguments checked against its schema, the call bounded by
 * the server's time limit. Prints the result as the model reads it (its text, or its structured
 * content as JSON), or with `json` the whole MCP result. Returns 0 for a result, 1 when the tool
 * is not listed, its arguments are refused or its result is an error (said on stderr); a call that
 * fails throws the call's error (`MCP server NAME refused the call: …`).
 */
export async function callMcpTool(
  mcp: AgentMcp,
  call: { name: string; args: Record<string, unknown>; json: boolean },
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const said = (text: string) => io.stderr(`agentstep mcp: ${text}\n`);
  const servers = Object.fromEntries(
    Object.entries(mcp.servers).filter(([server]) => call.name.startsWith(`${server}__`)),
  );
  if (Object.keys(servers).length === 0)
    throw new UsageError(
      `${call.name} names no MCP server of the agent (its servers: ${Object.keys(mcp.servers).join(', ')}).`,
    );
  const { tools, problems } = await listMcpTools(servers, mcp.connections);
  const entry = tools.find(({ name }) => name === call.name);
  if (entry === undefined) {
    for (const problem of problems) said(problem);
    said(
      `${call.name} is not a tool the agent may call; its servers list ${tools.map(({ name }) => name).join(', ') || 'none'}.`,
    );
    return 1;
  }
  const check = validateArgs(mcpTool(entry, mcp.connections), call.args);
  if (!check.ok) {
    said(check.message);
    return 1;
  }
  const result = await mcp.connections.callTool(entry.server, entry.tool, check.args, {
    timeoutMs: entry.timeoutMs,
  });
  if (call.json) {
    io.stdout(`${JSON.stringify(result)}\n`);
    return result.isError ? 1 : 0;
  }
  let output: unknown;
  try {
    output = mcpToolOutput(result);
  } catch (error) {
    said((error as Error).message);
    return 1;
  }
  io.stdout(`${typeof output === 'string' ? output : JSON.stringify(output)}\n`);
  return 0;
}
