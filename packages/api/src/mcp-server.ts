import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';
import { mcpAsk } from './mcp-ask.js';
import type { AskStream } from './mcp-ask-stream.js';
import { callMcpTool } from './mcp-call-tool.js';
import { McpSessionResources } from './mcp-session-resources.js';
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
 * read and cancel the tenant's turns from the log; the tenant's sessions as resources. An ask the
 * request streams (`askStream`) runs its turn under the ids its stream's event ids name. It takes
 * `logging/setLevel` and sends no log messages: a stateless server keeps no level between requests,
 * and an ask reports its turn in progress notifications.
 */
export function agentMcpServer(deps: ApiDeps, tenant: string, askStream?: AskStream): Server {
  const tasks = new McpTurnTasks(deps, tenant);
  const tools: McpTool[] = [mcpAsk(deps, tenant, tasks, askStream), ...mcpSessionTools(deps, tenant)];
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: {},
      resources: {},
      logging: {},
      tasks: { requests: { tools: { call: {} } }, cancel: {} },
    },
    taskStore: tasks,
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(mcpToolDefinition) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callMcpTool(tools, request, extra));
  const resources = new McpSessionResources(deps, tenant);
  server.setRequestHandler(ListResourcesRequestSchema, ({ params }) => resources.list(params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => resources.templates());
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => resources.read(params.uri));
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return server;
}
