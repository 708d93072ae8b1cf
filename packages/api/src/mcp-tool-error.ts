import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { apiErrorOf } from './api-error.js';

/**
 * A tool's failure as an MCP error result (`isError: true`): the API's refusal message (a store
 * that cannot be reached says so; a failure of the server names nothing of it, and is logged).
 */
export function mcpToolError(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: apiErrorOf(error).message }], isError: true };
}
