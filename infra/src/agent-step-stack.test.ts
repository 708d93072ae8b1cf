import { fileURLToPath } from 'node:url';
import { type App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { AgentStepStack, type AgentStepStackProps } from './agent-step-stack.js';
import { logicalId, testApp } from './testing/synth-agent.js';

const jwt = { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' };

/** Synthesizes `app` under cdk-nag's AWS Solutions checks; returns every finding not acknowledged. */
function nagErrors(app: App): string[] {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return [];
  } catch (error) {
    return [String(error instanceof Error ? error.message : error)];
  }
}

describe('AgentStepStack', () => {
  it('outputs the API’s URL, and no URL without an API', () => {
    const stack = new AgentStepStack(testApp(), 'WithApi');
    const output = Template.fromStack(stack).toJSON().Outputs.ApiUrl;
    expect(JSON.stringify(output.Value)).toContain('https://');
    expect(output.Value['Fn::Join'][1]).toContainEqual({ Ref: logicalId(stack.agent.api) });
    const without = new AgentStepStack(testApp(), 'WithoutApi', { agent: { api: false } });
    expect(Template.fromStack(without).toJSON().Outputs?.ApiUrl).toBeUndefined();
  });
});

describe('AgentStepStack under cdk-nag’s AWS Solutions checks', () => {
  it.each<[string, AgentStepStackProps]>([
    ['the demo agent with a workspace', { agent: { builtInTools: ['demo', 'workspace'] } }],
    [
      'the API behind the JWT authorizer, without the account logs role',
      { agent: { api: { auth: { jwt }, cloudWatchRole: false } } },
    ],
    ['the web console on CloudFront', { agent: { api: { auth: { jwt }, console: true } } }],
    [
      'CORS preflights without authorization',
      { agent: { api: { auth: { jwt }, cors: { allowOrigins: ['https://app.example.com'] } } } },
    ],
    ['no API', { agent: { api: false } }],
    [
      'a Bedrock inference profile and an API key secret',
      {
        agent: { model: 'bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0' },
        modelApiKeySecret: 'agent/key',
      },
    ],
    [
      'an agent file of remote MCP servers whose headers name secrets',
      { agent: { agent: fileURLToPath(new URL('testing/mcp-agent.ts', import.meta.url)) } },
    ],
    [
      'a model profile on a Bedrock inference profile',
      { agent: { modelProfiles: { fast: 'bedrock:eu.anthropic.claude-haiku-4-5-20251001-v1:0' } } },
    ],
    ["traces exported to CloudWatch's OTLP endpoint", { agent: { traces: 'cloudwatch' } }],
  ])('passes with %s: every accepted finding is acknowledged with a reason', (_, props) => {
    const app = testApp();
    new AgentStepStack(app, 'Nag', props);
    expect(nagErrors(app)).toEqual([]);
  });

  it('passes with traces exported to a collector whose headers a secret holds', () => {
    const app = testApp();
    const headers = Secret.fromSecretCompleteArn(
      new Stack(app, 'Secrets'),
      'Headers',
      'arn:aws:secretsmanager:us-east-1:123456789012:secret:otlp/headers-AbCdEf',
    );
    new AgentStepStack(app, 'Nag', {
      agent: { traces: { otlpEndpoint: 'https://otlp.example.com', headers, captureContent: true } },
    });
    expect(nagErrors(app)).toEqual([]);
  });

  it('passes with every trigger: no finding left unacknowledged', () => {
    const app = testApp();
    const stack = new AgentStepStack(app, 'Nag');
    const { agent } = stack;
    agent.runOnSchedule(Schedule.rate(Duration.days(1)), {
      message: 'Write the daily report.',
      session: 'daily',
    });
    agent.runOnEvent(new Rule(stack, 'Orders', { eventPattern: { source: ['shop'] } }), {
      message: 'Order <$.detail.orderId> failed.',
    });
    const encrypted = { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true };
    const dlq = new Queue(stack, 'RequestsDlq', encrypted);
    const requests = new Queue(stack, 'Requests', {
      ...encrypted,
      deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
    });
    agent.runOnQueue(requests);
    agent.grantStartTurn(new Role(stack, 'Starter', { assumedBy: new AccountRootPrincipal() }));
    agent.grantReadSessions(new Role(stack, 'Reader', { assumedBy: new AccountRootPrincipal() }));
    expect(nagErrors(app)).toEqual([]);
  });

  it('fails on a finding nobody acknowledged (the checks are live)', () => {
    const app = testApp();
    const stack = new AgentStepStack(app, 'Unchecked');
    new Secret(stack, 'NoRotation');
    expect(nagErrors(app)).toEqual([expect.stringMatching(/AwsSolutions-SMG4/)]);
  });
});
