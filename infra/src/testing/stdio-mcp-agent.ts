import { defineAgent } from '@agentstep/runtime';

/** A fixture agent with an MCP server that runs as a local command: it cannot deploy. */
export default defineAgent({
  name: 'stdio_mcp',
  mcpServers: {
    docs: { url: 'https://docs.example.com/mcp' },
    memory: { url: 'stdio:npx -y @modelcontextprotocol/server-memory' },
  },
});
