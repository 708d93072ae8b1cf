import { defineAgent } from '@agentstep/runtime';

/** The Secrets Manager secret, named by its complete ARN, that holds the private key of the jira server's client. */
export const JIRA_KEY_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcp/jira-key-AbCdEf';

/**
 * A fixture agent whose MCP servers get their tokens with OAuth client credentials: one with a
 * client secret (by name) beside a secret header, one with a private key (by ARN).
 */
export default defineAgent({
  name: 'oauth_mcp',
  mcpServers: {
    crm: {
      url: 'https://crm.example.com/mcp',
      headers: { 'X-Tenant': { secret: 'mcp/crm-tenant' } },
      oauth: {
        issuer: 'https://login.example.com',
        clientId: 'agent',
        clientSecret: { secret: 'mcp/crm-client' },
      },
    },
    jira: {
      url: 'https://jira.example.com/mcp',
      oauth: { issuer: 'https://auth.example.com', clientId: 'agent', privateKey: { secret: JIRA_KEY_ARN } },
    },
  },
});
