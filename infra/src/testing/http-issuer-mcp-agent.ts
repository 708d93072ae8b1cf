import { defineAgent } from '@agentstep/runtime';

/** A fixture agent whose MCP server is on https but gets its tokens from a plain-HTTP issuer. */
export default defineAgent({
  name: 'http_issuer_mcp',
  mcpServers: {
    crm: {
      url: 'https://crm.example.com/mcp',
      oauth: {
        issuer: 'http://login.internal.example.com/realms/agents',
        clientId: 'agent',
        clientSecret: { secret: 'mcp/crm-client' },
      },
    },
  },
});
