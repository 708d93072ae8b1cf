import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LINEAR_SECRET_ARN } from './testing/mcp-agent.js';
import { JIRA_KEY_ARN } from './testing/oauth-mcp-agent.js';
import { type roleStatements, secretStatements } from './testing/role-statements.js';
import { synthAgent } from './testing/synth-agent.js';

const fixture = (path: string) => fileURLToPath(new URL(`testing/${path}`, import.meta.url));

/** The functions that list an agent's MCP tools (the model steps) or call them (the tools function). */
const MCP_STEPS = ['model-step', 'advance-turn', 'invoke-tool'] as const;

describe('AgentStep with an agent file of remote MCP servers', () => {
  const { template, agent } = synthAgent(
    { agent: fixture('mcp-agent.ts') },
    { env: { account: '123456789012', region: 'eu-west-1' } },
  );
  const secretsOf = (fn: Parameters<typeof roleStatements>[1]) => secretStatements(template, fn);

  it('lets the functions that list and call their tools read the secrets their headers name, and nothing more', () => {
    for (const step of MCP_STEPS)
      expect(secretsOf(agent.functions[step])).toEqual([
        {
          Action: 'secretsmanager:GetSecretValue',
          Effect: 'Allow',
          Resource: [
            {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':secretsmanager:eu-west-1:123456789012:secret:mcp/github-??????',
                ],
              ],
            },
            LINEAR_SECRET_ARN,
          ],
        },
      ]);
  });

  it('lets no other function read them', () => {
    const listingOrCalling = new Set<string>(MCP_STEPS);
    for (const [step, fn] of Object.entries(agent.functions))
      if (!listingOrCalling.has(step)) expect(secretsOf(fn)).toEqual([]);
    expect(Object.keys(agent.apiFunctions)).toContain('api');
    for (const fn of Object.values(agent.apiFunctions)) expect(secretsOf(fn)).toEqual([]);
  });

  it('keeps header values, even plain ones, out of the template', () => {
    expect(JSON.stringify(template.toJSON())).not.toContain('plain-header-value');
  });
});

describe('AgentStep with an agent file of MCP servers that get their tokens with OAuth client credentials', () => {
  const { template, agent } = synthAgent(
    { agent: fixture('oauth-mcp-agent.ts'), api: false },
    { env: { account: '123456789012', region: 'eu-west-1' } },
  );
  const secretsOf = (fn: Parameters<typeof roleStatements>[1]) => secretStatements(template, fn);
  const secretByName = (name: string) => ({
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, `:secretsmanager:eu-west-1:123456789012:secret:${name}-??????`],
    ],
  });

  it('lets the functions that list and call their tools read the client secret and the private key as they read header secrets', () => {
    for (const step of MCP_STEPS)
      expect(secretsOf(agent.functions[step])).toEqual([
        {
          Action: 'secretsmanager:GetSecretValue',
          Effect: 'Allow',
          Resource: [secretByName('mcp/crm-tenant'), secretByName('mcp/crm-client'), JIRA_KEY_ARN],
        },
      ]);
    const listingOrCalling = new Set<string>(MCP_STEPS);
    for (const [step, fn] of Object.entries(agent.functions))
      if (!listingOrCalling.has(step)) expect(secretsOf(fn)).toEqual([]);
  });
});

describe('AgentStep refusing MCP servers Lambda cannot reach safely', () => {
  it('fails synthesis on a stdio server, naming it and saying what to do', () => {
    expect(() => synthAgent({ agent: fixture('stdio-mcp-agent.ts'), api: false })).toThrow(
      'AgentStep prop agent: the MCP server memory runs a local command (stdio:npx -y @modelcontextprotocol/server-memory), which cannot run on Lambda: give it an https:// url, or leave it to agentstep run/serve.',
    );
  });

  it('fails synthesis on a plain HTTP server, naming it by its origin (no path or query, which may hold a token)', () => {
    expect(() => synthAgent({ agent: fixture('http-mcp-agent.ts'), api: false })).toThrow(
      'AgentStep prop agent: the MCP server internal has a plain HTTP url (http://mcp.internal.example.com:8080), which would send its headers and calls unencrypted from Lambda: give it an https:// url.',
    );
  });

  it('fails synthesis on client credentials sent to a plain HTTP issuer, naming it by its origin', () => {
    expect(() => synthAgent({ agent: fixture('http-issuer-mcp-agent.ts'), api: false })).toThrow(
      'AgentStep prop agent: the MCP server crm gets its tokens from a plain HTTP issuer (http://login.internal.example.com), which would send its client credentials unencrypted from Lambda: give oauth.issuer an https:// url.',
    );
  });
});
