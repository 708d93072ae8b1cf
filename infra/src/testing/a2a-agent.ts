import { defineAgent } from '@agentstep/runtime';

/** The Secrets Manager secret, named by its complete ARN, whose value the billing agent's header carries. */
export const BILLING_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:a2a/billing-AbCdEf';

/**
 * A fixture agent with remote A2A agents: two whose headers name secrets (by name, by ARN; the
 * name twice), one header of plain text, one agent without headers.
 */
export default defineAgent({
  name: 'a2a',
  a2aAgents: [
    {
      name: 'research',
      url: 'https://research.example.com',
      headers: {
        Authorization: { secret: 'a2a/research', prefix: 'Bearer ' },
        'X-Backup-Token': { secret: 'a2a/research' },
        'X-Team': 'plain-a2a-header-value',
      },
    },
    {
      name: 'billing',
      url: 'https://billing.example.com/agent',
      headers: { 'X-Key': { secret: BILLING_SECRET_ARN } },
    },
    { name: 'docs', url: 'https://docs.example.com' },
  ],
});
