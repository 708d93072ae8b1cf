import * as z from 'zod';
import type { EventLog } from '../event-log/event-log.js';
import { listMcpTools } from './list-mcp-tools.js';
import type { McpConnections } from './mcp-connections.js';
import type { McpServerSpec } from './mcp-server-spec.js';
import { type McpToolEntry, mcpToolEntrySchema } from './mcp-tool-entry.js';

const loggedListSchema = z.object({ tools: z.array(mcpToolEntrySchema), problems: z.array(z.string()) });

/** The MCP servers an agent reads tools from, and its connections to them. */
export interface AgentMcp {
  servers: Readonly<Record<string, McpServerSpec>>;
  connections: McpConnections;
}

/** The largest tool list a turn logs (its note stays well under the log's 100 KB). */
export const MAX_LOGGED_MCP_TOOLS_BYTES = 80 * 1024;

/** The idempotency key under which a turn's MCP tool list is logged. */
export function mcpToolsKey(turn: string): string {
  return `mcp-tools#${turn}`;
}

/** What a turn's MCP tools are: the tools, and what kept others out (unreachable servers, a list too long). */
export interface TurnMcpTools {
  tools: McpToolEntry[];
  problems: string[];
}

/**
 * The MCP tools of `turn`: read from its servers at the turn's first model step and logged (first
 * write wins), so every later step, a retry, a redrive and the tools step see the same list. A
 * server that cannot be reached adds no tools and a problem; so does a list too long to log.
 */
export async function turnMcpTools(
  session: string,
  turn: string,
  deps: { log: EventLog; mcp: AgentMcp },
): Promise<TurnMcpTools> {
  const logged = await loggedMcpTools(session, turn, deps.log);
  if (logged !== undefined) return logged;
  const listed = fitted(await listMcpTools(deps.mcp.servers, deps.mcp.connections));
  const key = mcpToolsKey(turn);
  // As one JSON text: a schema's numbers and depth are beyond what the store's maps may hold.
  await deps.log.append({ session, turn, key, events: [], note: { list: JSON.stringify(listed) } });
  // A concurrent first step may have logged first: its list is the turn's.
  return (await loggedMcpTools(session, turn, deps.log)) ?? listed;
}

/** The MCP tools logged for `turn`, or undefined before its first model step logged them. */
export async function loggedMcpTools(
  session: string,
  turn: string,
  log: EventLog,
): Promise<TurnMcpTools | undefined> {
  const note = (await log.appended(session, mcpToolsKey(turn)))?.note;
  if (note === undefined) return undefined;
  try {
    return loggedListSchema.parse(JSON.parse(String(note.list)));
  } catch (error) {
    throw new Error(`The MCP tool list logged for turn ${turn} of session ${session} cannot be read.`, {
      cause: error,
    });
  }
}

/** The list as it can be logged: tools past {@link MAX_LOGGED_MCP_TOOLS_BYTES} are left out, saying so. */
function fitted({ tools, problems }: TurnMcpTools): TurnMcpTools {
  const kept: McpToolEntry[] = [];
  let bytes = 0;
  for (const tool of tools) {
    bytes += Buffer.byteLength(JSON.stringify(tool));
    if (bytes > MAX_LOGGED_MCP_TOOLS_BYTES) break;
    kept.push(tool);
  }
  if (kept.length === tools.length) return { tools, problems };
  const left = tools.slice(kept.length).map(({ name }) => name);
  const problem = `The MCP tools' descriptions are over ${MAX_LOGGED_MCP_TOOLS_BYTES} bytes: ${left.join(', ')} left out. Name the tools you need in the server's \`tools\` list.`;
  return { tools: kept, problems: [...problems, problem] };
}
