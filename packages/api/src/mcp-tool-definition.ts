import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { McpTool } from './mcp-tool.js';

/**
 * How `tools/list` shows `tool`: its arguments' and structured result's JSON Schema (draft 7, as
 * the SDK's own servers write them), its annotations, and whether a call may run as a task.
 */
export function mcpToolDefinition(tool: McpTool): Tool {
  const { name, title, description, input, output, annotations } = tool;
  return {
    name,
    title,
    description,
    inputSchema: jsonSchema(input, 'input'),
    ...(output ? { outputSchema: jsonSchema(output, 'output') } : {}),
    ...(annotations ? { annotations } : {}),
    execution: { taskSupport: tool.task ? 'optional' : 'forbidden' },
  };
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  // An object schema's JSON Schema is `{type: "object", properties, required?, …}`.
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];
}
