import { fieldProblems } from '@agentstep/protocol';
import {
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { apiErrorOf } from './api-error.js';
import type { McpCallExtra, McpTool } from './mcp-tool.js';
import { mcpToolError } from './mcp-tool-error.js';

/**
 * Answers `tools/call`: the named tool's result, or its task when the call asks for one (and the
 * tool runs as a task). Arguments that fail the tool's schema are an error result naming each
 * field; a tool's failure is an error result saying why. An unknown tool, a task asked of a tool
 * that runs none, or a task that cannot start, is a protocol error.
 */
export async function callMcpTool(
  tools: readonly McpTool[],
  { params }: CallToolRequest,
  extra: McpCallExtra,
): Promise<CallToolResult | CreateTaskResult> {
  const tool = tools.find(({ name }) => name === params.name);
  if (tool === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Tool ${params.name} not found: tools/list names ${tools.map(({ name }) => name).join(', ')}.`,
    );
  const args = tool.input.safeParse(params.arguments ?? {});
  if (!args.success) {
    const problems = fieldProblems(args.error, 'is not an argument of this tool').map(
      ({ path, message }) => `${path || 'arguments'}: ${message}`,
    );
    const text = `Input validation error: Invalid arguments for tool ${tool.name}: ${problems.join('; ')}`;
    return { content: [{ type: 'text', text }], isError: true };
  }
  if (params.task === undefined) return tool.call(args.data, extra).catch(mcpToolError);
  if (tool.task === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Tool ${tool.name} does not run as a task: call it without task.`,
    );
  return tool.task(args.data).catch((error: unknown) => {
    // A task that cannot start has no task to answer with: the request fails, saying why.
    throw new McpError(ErrorCode.InvalidRequest, apiErrorOf(error).message);
  });
}
