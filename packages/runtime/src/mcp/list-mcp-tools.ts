import { toolDescriptionSchema } from '@agentstep/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { IDENTITY_ARGUMENT } from '../tools/define-tool.js';
import type { McpConnections } from './mcp-connections.js';
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerSpec } from './mcp-server-spec.js';
import type { McpToolEntry } from './mcp-tool-entry.js';

/** The tools of a turn's MCP servers, and what kept any of them out. */
export interface McpToolList {
  /** In the servers' order, each server's tools in the order it lists them. */
  tools: McpToolEntry[];
  /** One sentence per server that could not be reached, tool skipped or allowlisted tool missing. */
  problems: string[];
  /** The servers that gave no list: they could not be reached, or did not list their tools (in time). */
  unlisted: string[];
}

/**
 * Reads every server's tools (following `tools/list` pages) and keeps those its allowlist names,
 * as `SERVER__TOOL`. Never throws for a server: one that cannot be reached gives no tools and a
 * problem, so the turn still runs; a tool whose name cannot be mapped, or that declares an
 * identity argument, is skipped with a problem.
 */
export async function listMcpTools(
  servers: Readonly<Record<string, McpServerSpec>>,
  connections: McpConnections,
): Promise<McpToolList> {
  const lists = await Promise.all(
    Object.entries(servers).map(([server, spec]) => listedInTime(server, spec, connections)),
  );
  const problems = lists.flatMap((list) => list.problems);
  const unlisted = lists.flatMap((list) => list.unlisted);
  const tools: McpToolEntry[] = [];
  for (const tool of lists.flatMap((list) => list.tools)) {
    if (tools.some(({ name }) => name === tool.name))
      problems.push(
        `MCP server ${tool.server}'s tool "${tool.tool}" is skipped: another tool is named ${tool.name}.`,
      );
    else tools.push(tool);
  }
  return { tools, problems: problems.map(shortened), unlisted };
}

/** The longest a server may take to list its tools, connecting included: a turn's first step waits for it. */
export const MAX_MCP_LISTING_MS = 30_000;

/** A server's tools, or none and a problem once it has taken {@link MAX_MCP_LISTING_MS} or its own time limit. */
async function listedInTime(
  server: string,
  spec: McpServerSpec,
  connections: McpConnections,
): Promise<McpToolList> {
  const limitMs = Math.min(spec.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS, MAX_MCP_LISTING_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<McpToolList>((settle) => {
    timer = setTimeout(() => {
      const problem = `MCP server ${server} did not list its tools within ${limitMs / 1000} s: it adds none to this turn.`;
      settle({ tools: [], problems: [problem], unlisted: [server] });
    }, limitMs);
  });
  try {
    return await Promise.race([serverTools(server, spec, connections), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The longest problem kept: a server's error page must not fill the turn's logged list. */
const MAX_PROBLEM_CHARS = 500;

function shortened(problem: string): string {
  return problem.length <= MAX_PROBLEM_CHARS ? problem : `${problem.slice(0, MAX_PROBLEM_CHARS - 1)}…`;
}

async function serverTools(
  server: string,
  spec: McpServerSpec,
  connections: McpConnections,
): Promise<McpToolList> {
  const timeoutMs = spec.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  let offered: McpTool[];
  try {
    offered = await connections.withClient(server, (client) => allTools(server, client, timeoutMs));
  } catch (error) {
    return { tools: [], problems: [(error as Error).message], unlisted: [server] };
  }
  const problems = [
    ...missing(server, 'tools', spec.tools, offered),
    ...missing(server, 'approval', spec.approval, offered),
  ];
  const allowed = spec.tools ? offered.filter((tool) => spec.tools?.includes(tool.name)) : offered;
  const tools: McpToolEntry[] = [];
  for (const tool of allowed) {
    const problem = unusable(server, tool);
    if (problem) problems.push(problem);
    else tools.push(entry(server, spec, tool, timeoutMs));
  }
  return { tools, problems, unlisted: [] };
}

/** Every page of a server's tools; a failure says the server could not list them. */
async function allTools(server: string, client: Client, timeoutMs: number): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  try {
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor !== undefined && cursors.has(cursor))
        throw new Error(`it sent the page cursor "${cursor}" twice`);
      if (cursor !== undefined) cursors.add(cursor);
    } while (cursor !== undefined);
  } catch (error) {
    throw new Error(`MCP server ${server} could not list its tools: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return tools;
}

function missing(
  server: string,
  field: 'tools' | 'approval',
  names: readonly string[] | boolean | undefined,
  offered: readonly McpTool[],
): string[] {
  if (!Array.isArray(names)) return [];
  const known = offered.map((tool) => tool.name);
  return names
    .filter((name) => !known.includes(name))
    .map(
      (name) =>
        `MCP server ${server} has no tool "${name}" (named in its ${field}); its tools: ${known.join(', ') || 'none'}.`,
    );
}

function unusable(server: string, tool: McpTool): string | undefined {
  const name = `${server}__${tool.name}`;
  if (!toolDescriptionSchema.shape.name.safeParse(name).success) {
    return `MCP server ${server}'s tool "${tool.name}" is skipped: "${name}" is not a usable tool name (1–64 letters, digits, "_", "." or "-", starting with a letter or "_").`;
  }
  const identity = Object.keys(tool.inputSchema.properties ?? {}).filter((key) =>
    IDENTITY_ARGUMENT.test(key),
  );
  if (identity.length > 0) {
    return `MCP server ${server}'s tool "${tool.name}" is skipped: it takes ${identity.join(', ')}, and identity comes from the call context, not from model arguments.`;
  }
  return undefined;
}

function entry(server: string, spec: McpServerSpec, tool: McpTool, timeoutMs: number): McpToolEntry {
  const approval = Array.isArray(spec.approval)
    ? spec.approval.includes(tool.name)
    : (spec.approval ?? false);
  return {
    name: `${server}__${tool.name}`,
    server,
    tool: tool.name,
    description: tool.description ?? tool.title ?? '',
    inputSchema: tool.inputSchema,
    approval,
    timeoutMs,
  };
}
