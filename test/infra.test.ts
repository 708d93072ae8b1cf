import { AgentStep, type AgentStepProps } from '@agentstep/infra';
import { EVENT_LOG_KEYS } from '@agentstep/runtime/dynamo';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

function synth(props: AgentStepProps = {}): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Test');
  new AgentStep(stack, 'Agent', props);
  return Template.fromStack(stack);
}

describe('AgentStep (synthesized)', () => {
  const template = synth({ builtInTools: ['demo', 'workspace'] });

  it('deploys every step on Node.js 22, arm64, with its own log group and role', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(7);
    for (const { Properties } of Object.values(functions)) {
      expect(Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogGroup: expect.anything() },
      });
    }
    template.resourceCountIs('AWS::Logs::LogGroup', 8);
    expect(JSON.stringify(template.toJSON())).not.toContain('AWSLambdaBasicExecutionRole');
  });

  it('keys the event-log table the way the runtime reads it', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: EVENT_LOG_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: EVENT_LOG_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
    });
  });

  it('runs a Standard workflow in JSONPath (the local engine does not run JSONata)', () => {
    const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(machine?.Properties.StateMachineType).toBe('STANDARD');
    expect(JSON.stringify(machine?.Properties.DefinitionString)).not.toContain('JSONata');
  });

  it('gives the workspace a private bucket and the tools function only get, put and list under sessions/', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    const actions = Object.values(template.findResources('AWS::IAM::Policy'))
      .flatMap(({ Properties }) => Properties.PolicyDocument.Statement)
      .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
      .filter((action: string) => action.startsWith('s3:'));
    expect(new Set(actions)).toEqual(new Set(['s3:GetObject', 's3:PutObject', 's3:ListBucket']));
  });

  it('creates no bucket without the workspace toolset', () => {
    synth().resourceCountIs('AWS::S3::Bucket', 0);
  });

  it.each([0, 41, 2.5])('refuses maxConcurrency %s with a clear error', (maxConcurrency) => {
    expect(() => synth({ maxConcurrency })).toThrow('maxConcurrency must be a whole number from 1 to 40');
  });
});
