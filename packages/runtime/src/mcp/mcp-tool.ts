import type { Tool } from '../tools/define-tool.js';
import { jsonSchemaInput } from './json-schema-input.js';
import type { McpConnections } from './mcp-connections.js';
import type { McpToolEntry } from './mcp-tool-entry.js';
import { mcpToolOutput } from './mcp-tool-output.js';

/**
 * How much longer than its MCP call a tool's own time limit is, so that a server that does not
 * answer in time fails with the call's own message (`outcome unknown: MCP server NAME stopped
 * answering after the call was sent: …`).
 */
export const MCP_TIMEOUT_GRACE_MS = 1_000;

/**
 * The tool that calls an MCP server's tool: arguments checked against the server's JSON Schema
 * before anything is sent, the call bounded by the entry's time limit and the call's signal, and
 * the result mapped by {@link mcpToolOutput}. The call's idempotency key goes as the request's
 * `_meta.idempotencyKey` (the SDK sets no header per request); MCP tools are not idempotent.
 */
export function mcpTool(entry: McpToolEntry, connections: McpConnections): Tool {
  const from = `(tool ${entry.tool} of the MCP server ${entry.server})`;
  return {
    name: entry.name,
    description: entry.description ? `${entry.description} ${from}` : `The ${from.slice(1, -1)}.`,
    input: jsonSchemaInput(entry.inputSchema),
    sequential: false,
    timeoutMs: entry.timeoutMs + MCP_TIMEOUT_GRACE_MS,
    approval: entry.approval,
    idempotent: false,
    handler: async (args, context) =>
      mcpToolOutput(
        await connections.callTool(entry.server, entry.tool, args, {
          signal: context.signal,
          timeoutMs: entry.timeoutMs,
          idempotencyKey: context.idempotencyKey,
        }),
      ),
  };
}
