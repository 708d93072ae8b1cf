import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  CreateTaskResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';

/** What a tool's call runs with: the request's progress token, its signal, a way to notify the client. */
export type McpCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * One tool of the agent's MCP server: what `tools/list` says of it, and how a call runs. `task`,
 * when present, answers a task-augmented call at once with the task that the call's work is.
 */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /** The shape of the result's `structuredContent`, when the tool declares one. */
  output?: z.ZodObject;
  annotations?: ToolAnnotations;
  call(args: z.infer<Input>, extra: McpCallExtra): Promise<CallToolResult>;
  task?(args: z.infer<Input>): Promise<CreateTaskResult>;
}
