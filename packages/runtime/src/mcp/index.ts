export { type JsonSchema, jsonSchemaInput } from './json-schema-input.js';
export { listMcpTools, type McpToolList } from './list-mcp-tools.js';
export { mcpAuthProvider } from './mcp-auth-provider.js';
export { type McpCallOptions, McpConnections, type McpConnectionsOptions } from './mcp-connections.js';
export {
  MCP_OAUTH_ALGORITHMS,
  type McpOAuth,
  type McpOAuthAlgorithm,
  mcpOAuthSchema,
} from './mcp-oauth-spec.js';
export { mcpOfAgent } from './mcp-of-agent.js';
export { mcpServerSecrets } from './mcp-server-secrets.js';
export {
  DEFAULT_MCP_TIMEOUT_MS,
  isStdioUrl,
  type McpHeaderValue,
  type McpServerSpec,
  mcpServerNameSchema,
  mcpServerSpecSchema,
} from './mcp-server-spec.js';
export { MCP_TIMEOUT_GRACE_MS, mcpTool } from './mcp-tool.js';
export { type McpToolEntry, mcpToolEntrySchema } from './mcp-tool-entry.js';
export { mcpToolOutput } from './mcp-tool-output.js';
export { parseStdioCommand, type StdioCommand } from './parse-stdio-command.js';
export { resolveHeaders, type SecretLookup } from './resolve-headers.js';
export {
  type AgentMcp,
  loggedMcpTools,
  MAX_LOGGED_MCP_TOOLS_BYTES,
  mcpToolsKey,
  type TurnMcpTools,
  turnMcpTools,
} from './turn-mcp-tools.js';
export { withTurnMcpTools } from './with-turn-mcp-tools.js';
