import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';
import { mcpAsk } from './mcp-ask.js';
import { callMcpTool } from './mcp-call-tool.js';
import { mcpSessionTools } from './mcp-session-tools.js';
import type { McpTool } from './mcp-tool.js';
import { mcpToolDefinition } from './mcp-tool-definition.js';
import { McpTurnTasks } from './mcp-turn-tasks.js';

/** How the server names itself to MCP clients. */
const SERVER_INFO = { name: 'agentstep', version: '0.1.0' };

const INSTRUCTIONS =
  'An AgentStep agent. Call ask with a message to run a turn and get its answer; pass the session it returns to continue the conversation. list_sessions and get_session read your sessions.';

/**
 * The agent as an MCP server acting for `tenant`: the tools `ask` (also as a task: the task is
 * the turn), `list_sessions` and `get_session`; `tasks/get`, `tasks/result` and `tasks/cancel`
 * read and cancel the tenant's turns from the log.
 */
export function agentMcpServer(deps: ApiDeps, tenant: string): Server {
  const tasks = new McpTurnTasks(deps, tenant);
  const tools: McpTool[] = [mcpAsk(deps, tenant, tasks), ...mcpSessionTools(deps, tenant)];
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } },
    taskStore: tasks,
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(mcpToolDefinition) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callMcpTool(tools, request, extra));
  return server;
}
