import { readFileSync } from 'node:fs';
import { ENV_NAMES, SCRIPTED_MODEL } from '@agentstep/protocol';
import { Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { AgentStepSmokeStack, SMOKE_EVENT_SOURCE } from './agent-step-smoke-stack.js';
import { fillInputTemplate, valueAt } from './testing/fill-input-template.js';
import { environmentOf, liveId, logicalId, testApp } from './testing/synth-agent.js';

/** The event `agentstep smoke` puts on the default bus. */
const SMOKE_EVENT = {
  version: '0',
  id: '5b4f2c0e-6a8d-4c1e-9f3a-2d7b8e1c0a99',
  'detail-type': 'AgentStep Smoke Test',
  source: SMOKE_EVENT_SOURCE,
  time: '2026-11-23T10:00:00Z',
  detail: { stack: 'Smoke', message: 'Smoke test: a turn a trigger started.' },
};

/** An API behind JWTs with the web console: the smoke stack's largest shape, its buckets included. */
const WITH_CONSOLE = {
  auth: { jwt: { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' } },
  console: true,
};

/**
 * The smoke stack with the console, synthesized once under cdk-nag's AWS Solutions checks, and
 * what the checks left unacknowledged.
 */
function synthesized() {
  const app = testApp();
  const stack = new AgentStepSmokeStack(app, 'Smoke', { api: WITH_CONSOLE });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let nagErrors: string[] = [];
  try {
    app.synth();
  } catch (error) {
    nagErrors = [String(error instanceof Error ? error.message : error)];
  }
  return { stack, nagErrors, template: Template.fromStack(stack) };
}

describe('AgentStepSmokeStack', () => {
  const { stack, nagErrors, template } = synthesized();
  const live = liveId(stack.agent);

  it('outputs its event source, the API’s and the console’s URLs and the live alias, with a description', () => {
    const { Outputs, Description } = template.toJSON();
    expect(Outputs.SmokeEventSource.Value).toBe(SMOKE_EVENT_SOURCE);
    expect(Outputs.ApiUrl.Value['Fn::Join'][1]).toContainEqual({ Ref: logicalId(stack.agent.api) });
    expect(Outputs.LiveAliasArn.Value).toEqual({ Ref: live });
    expect(Outputs.ConsoleUrl).toBeDefined();
    expect(Description).toMatch(/smoke/i);
  });

  it('starts a one-step turn through the live alias for each smoke event naming its stack, its message from the detail', () => {
    const rules = Object.values(
      template.findResources('AWS::Events::Rule', {
        Properties: { EventPattern: { source: [SMOKE_EVENT_SOURCE], detail: { stack: ['Smoke'] } } },
      }),
    );
    expect(rules).toHaveLength(1);
    const targets = rules[0]?.Properties.Targets;
    expect(targets.map(({ Arn }: { Arn: unknown }) => Arn)).toEqual([{ Ref: live }]);
    const { InputPathsMap, InputTemplate } = targets[0].InputTransformer;
    const input = fillInputTemplate(InputTemplate, (name) => valueAt(SMOKE_EVENT, InputPathsMap[name]));
    expect(input).toEqual({ message: SMOKE_EVENT.detail.message, maxSteps: 1, requestId: SMOKE_EVENT.id });
  });

  it('plays the smoke script on the scripted model', () => {
    const script = readFileSync(new URL('../smoke/script.json', import.meta.url), 'utf8');
    for (const step of ['model-step', 'advance-turn'] as const)
      expect(environmentOf(template, stack.agent.functions[step])).toMatchObject({
        [ENV_NAMES.model]: SCRIPTED_MODEL,
        [ENV_NAMES.modelScript]: script,
      });
  });

  it('retains nothing of the agent on deletion or replacement: the table without deletion protection, the buckets emptied first', () => {
    const resources: Record<string, { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string }> =
      template.toJSON().Resources;
    const kept = Object.entries(resources)
      .filter(([, { DeletionPolicy = 'Delete', UpdateReplacePolicy = 'Delete' }]) =>
        [DeletionPolicy, UpdateReplacePolicy].some((policy) => policy !== 'Delete'),
      )
      .map(([id, { Type }]) => `${id} (${Type})`);
    // The loop's published version, which running turns continue on (deleting the state machine
    // deletes its versions); API Gateway's CloudWatch Logs role and the account setting naming it,
    // the account's and region's, which its other APIs use.
    expect(kept).toEqual([
      expect.stringMatching(/^AgentLiveVersion\w+ \(AWS::StepFunctions::StateMachineVersion\)$/),
      expect.stringMatching(/^AgentApiCloudWatchRole\w+ \(AWS::IAM::Role\)$/),
      expect.stringMatching(/^AgentApiAccount\w+ \(AWS::ApiGateway::Account\)$/),
    ]);
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })],
    });
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 2);
  });

  it('passes cdk-nag’s AWS Solutions checks: every accepted finding is acknowledged', () => {
    expect(nagErrors).toEqual([]);
  });

  it('finds its agent file through an export the published manifest keeps, shipping smoke/', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const agentFile = './smoke/agent.js';
    expect(manifest.exports[agentFile]).toBe(agentFile);
    expect(manifest.publishConfig.exports[agentFile]).toBe(agentFile);
    expect(manifest.files).toContain('smoke');
  });
});
