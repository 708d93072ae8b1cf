import { defineAgent } from '@agentstep/runtime';

/** The Secrets Manager secret, named by its complete ARN, whose value the linear server's header carries. */
export const LINEAR_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcp/linear-AbCdEf';

/**
 * A fixture agent with remote MCP servers: two whose headers name secrets (by name, by ARN; the
 * name twice), one header of plain text, one server without headers.
 */
export default defineAgent({
  name: 'mcp',
  mcpServers: {
    github: {
      url: 'https://api.githubcopilot.com/mcp/',
      headers: {
        Authorization: { secret: 'mcp/github', prefix: 'Bearer ' },
        'X-Backup-Token': { secret: 'mcp/github' },
        'X-Team': 'plain-header-value',
      },
      approval: ['create_issue'],
    },
    linear: { url: 'https://mcp.linear.app/mcp', headers: { Authorization: { secret: LINEAR_SECRET_ARN } } },
    docs: { url: 'https://docs.example.com/mcp', tools: ['search'] },
  },
});
