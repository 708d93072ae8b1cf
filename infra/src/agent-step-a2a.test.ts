import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BILLING_SECRET_ARN } from './testing/a2a-agent.js';
import { type roleStatements, secretStatements } from './testing/role-statements.js';
import { synthAgent } from './testing/synth-agent.js';

const fixture = (path: string) => fileURLToPath(new URL(`testing/${path}`, import.meta.url));

describe('AgentStep with an agent file of remote A2A agents', () => {
  const { template, agent } = synthAgent(
    { agent: fixture('a2a-agent.ts') },
    { env: { account: '123456789012', region: 'eu-west-1' } },
  );
  const secretsOf = (fn: Parameters<typeof roleStatements>[1]) => secretStatements(template, fn);

  it('lets the tools function, which sends the messages, read the secrets their headers name, and nothing more', () => {
    expect(secretsOf(agent.functions['invoke-tool'])).toEqual([
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
                ':secretsmanager:eu-west-1:123456789012:secret:a2a/research-??????',
              ],
            ],
          },
          BILLING_SECRET_ARN,
        ],
      },
    ]);
  });

  it('lets no other function read them: the model steps only describe the tools', () => {
    for (const [step, fn] of Object.entries(agent.functions))
      if (step !== 'invoke-tool') expect(secretsOf(fn), step).toEqual([]);
    for (const fn of Object.values(agent.apiFunctions)) expect(secretsOf(fn)).toEqual([]);
  });

  it('keeps header values, even plain ones, out of the template', () => {
    expect(JSON.stringify(template.toJSON())).not.toContain('plain-a2a-header-value');
  });

  it('fails synthesis on a plain HTTP remote agent, naming it by its origin (no path or query, which may hold a token)', () => {
    expect(() => synthAgent({ agent: fixture('http-a2a-agent.ts'), api: false })).toThrow(
      'AgentStep prop agent: the remote A2A agent internal has a plain HTTP url (http://agent.internal.example.com:8080), which would send its headers and messages unencrypted from Lambda: give it an https:// url, or leave it to agentstep run/serve.',
    );
  });
});
