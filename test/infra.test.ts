import { AgentStep, type AgentStepProps } from '@agentstep/infra';
import { EVENT_LOG_KEYS } from '@agentstep/runtime/dynamo';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type CfnFunction, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
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

  it('offers an existing Lambda as a tool: described to the model, invocable by the tools function only', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'WithLambdaTool');
    const weather = new LambdaFunction(stack, 'Weather', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => ({ forecast: "sun" })'),
    });
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const agent = new AgentStep(stack, 'Agent', {
      lambdaTools: [{ name: 'weather', description: 'Forecast for a city.', parameters, function: weather }],
    });
    const lambdaTemplate = Template.fromStack(stack);
    const invokeToolId = stack.getLogicalId(agent.functions['invoke-tool'].node.defaultChild as CfnFunction);
    const environment = lambdaTemplate.toJSON().Resources[invokeToolId].Properties.Environment.Variables;
    expect(JSON.stringify(environment.AGENTSTEP_LAMBDA_TOOLS)).toContain('Forecast for a city.');
    const invokers = Object.values(lambdaTemplate.findResources('AWS::IAM::Policy')).filter(
      ({ Properties }) =>
        JSON.stringify(Properties.PolicyDocument).includes(
          stack.getLogicalId(weather.node.defaultChild as CfnFunction),
        ),
    );
    expect(invokers).toHaveLength(1);
    expect(JSON.stringify(invokers[0]?.Properties.Roles)).toContain('invoketool');
  });

  it('creates no bucket without the workspace toolset', () => {
    synth().resourceCountIs('AWS::S3::Bucket', 0);
  });

  it('refuses a Bedrock model until its IAM grants exist, rather than deploying an agent that cannot call it', () => {
    expect(() => synth({ model: 'bedrock:anthropic.claude-test' })).toThrow(
      'Bedrock models are not wired into the construct yet',
    );
  });

  it.each([0, 41, 2.5])('refuses maxConcurrency %s with a clear error', (maxConcurrency) => {
    expect(() => synth({ maxConcurrency })).toThrow('maxConcurrency must be a whole number from 1 to 40');
  });
});
