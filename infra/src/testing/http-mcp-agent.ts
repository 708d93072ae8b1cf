import { defineAgent } from '@agentstep/runtime';

/** A fixture agent with an MCP server on plain HTTP, a token in its query: it cannot deploy. */
export default defineAgent({
  name: 'http_mcp',
  mcpServers: { internal: { url: 'http://mcp.internal.example.com:8080/mcp?token=do-not-print' } },
});
