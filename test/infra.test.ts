import { AgentStep, type AgentStepProps, AgentStepStack, type AgentStepStackProps } from '@agentstep/infra';
import { loadAgent } from '@agentstep/local';
import { STATE_NAMES } from '@agentstep/protocol';
import { EVENT_LOG_KEYS } from '@agentstep/runtime/dynamo';
import { App, type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import {
  type CfnFunction,
  Code,
  type IFunction,
  Function as LambdaFunction,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { type CfnSecret, type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type CfnTopic, Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';

/** What the loop's steps, and the API that starts their turns, may do on the table: no deletes or scans. */
const LOOP_TABLE_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
];

function synth(props: AgentStepProps = {}): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Test');
  new AgentStep(stack, 'Agent', props);
  return Template.fromStack(stack);
}

/** Every statement of the policies attached to a function's role. */
function roleStatements(template: Template, stack: Stack, fn: IFunction) {
  const role = stack.getLogicalId(fn.role?.node.defaultChild as CfnRole);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes(role))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement);
}

describe('AgentStep (synthesized)', () => {
  const template = synth({ builtInTools: ['demo', 'workspace'] });

  it('deploys every step and the API function on Node.js 22, arm64, with its own log group and role', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(15);
    for (const { Properties } of Object.values(functions)) {
      expect(Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogGroup: expect.anything() },
      });
    }
    // One per function, the loop's and the workflows' state machines', and the API's access logs.
    template.resourceCountIs('AWS::Logs::LogGroup', 18);
    expect(JSON.stringify(template.toJSON())).not.toContain('AWSLambdaBasicExecutionRole');
  });

  it('sends failed, timed-out and aborted executions of its loop to CloseStoppedTurn', () => {
    const [machine] = Object.keys(template.findResources('AWS::StepFunctions::StateMachine'));
    const closer = Object.entries(template.findResources('AWS::Lambda::Function')).find(
      ([, fn]) => fn.Properties.Environment.Variables.AGENTSTEP_STEP === 'close-stopped-turn',
    )?.[0];
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [{ Ref: machine }] },
      },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [closer, 'Arn'] }, RetryPolicy: Match.anyValue() })],
    });
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

  /** Every statement of the policies attached to one step's role. */
  function statementsOf(
    template: Template,
    stack: Stack,
    step: keyof AgentStep['functions'],
    agent: AgentStep,
  ) {
    return roleStatements(template, stack, agent.functions[step]);
  }

  it.each([
    ['anthropic.claude-haiku-4-5', [':bedrock:eu-west-1::foundation-model/anthropic.claude-haiku-4-5']],
    [
      'eu.anthropic.claude-sonnet-4-5',
      [
        ':bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-5',
        ':bedrock:eu-*::foundation-model/anthropic.claude-sonnet-4-5',
      ],
    ],
  ])(
    'grants the model functions streaming from Bedrock model %s, and no other function',
    (modelId, resources) => {
      const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Bedrock', {
        env: { account: '123456789012', region: 'eu-west-1' },
      });
      const agent = new AgentStep(stack, 'Agent', { model: `bedrock:${modelId}` });
      const template = Template.fromStack(stack);
      for (const step of ['model-step', 'advance-turn'] as const) {
        const bedrock = statementsOf(template, stack, step, agent).filter(
          (statement: { Action: string }) => statement.Action === 'bedrock:InvokeModelWithResponseStream',
        );
        expect(bedrock).toHaveLength(1);
        const granted = [bedrock[0].Resource].flat().map((arn: unknown) => JSON.stringify(arn));
        expect(granted).toHaveLength(resources.length);
        for (const [index, resource] of resources.entries()) expect(granted[index]).toContain(resource);
      }
      expect(JSON.stringify(statementsOf(template, stack, 'invoke-tool', agent))).not.toContain('bedrock:');
    },
  );

  it('gives the model functions the API key secret’s ARN and read access to it, and no other function', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Secret');
    // A cast: CDK's Secret and ISecret disagree under exactOptionalPropertyTypes (secretFullArn).
    const modelApiKey = new Secret(stack, 'OpenAIKey') as ISecret;
    const agent = new AgentStep(stack, 'Agent', { model: 'openai:gpt-4o', modelApiKey });
    const template = Template.fromStack(stack);
    const secretId = stack.getLogicalId(modelApiKey.node.defaultChild as CfnSecret);
    for (const step of ['model-step', 'advance-turn'] as const) {
      const id = stack.getLogicalId(agent.functions[step].node.defaultChild as CfnFunction);
      const variables = template.toJSON().Resources[id].Properties.Environment.Variables;
      expect(variables.AGENTSTEP_MODEL_API_KEY_SECRET).toEqual({ Ref: secretId });
      expect(statementsOf(template, stack, step, agent)).toContainEqual(
        expect.objectContaining({
          Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        }),
      );
    }
    expect(JSON.stringify(statementsOf(template, stack, 'start-turn', agent))).not.toContain(
      'secretsmanager',
    );
  });

  it('gives each step only the table actions it uses: no deletes or scans, no head updates for tools', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Least');
    const agent = new AgentStep(stack, 'Agent');
    const template = Template.fromStack(stack);
    const tableActions = (step: keyof AgentStep['functions']) =>
      statementsOf(template, stack, step, agent)
        .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
        .filter((action: string) => action.startsWith('dynamodb:'))
        .sort();
    for (const step of Object.keys(agent.functions) as Array<keyof AgentStep['functions']>) {
      expect(tableActions(step)).not.toContain('dynamodb:DeleteItem');
      expect(tableActions(step)).not.toContain('dynamodb:Scan');
    }
    expect(tableActions('invoke-tool')).toEqual([
      'dynamodb:BatchWriteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
    ]);
    expect(tableActions('model-step')).toEqual(LOOP_TABLE_ACTIONS);
  });

  it('with the agents toolset, lets the tools function start the loop for 15 minutes through a policy of its own: no cycle', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'SubAgents');
    const agent = new AgentStep(stack, 'Agent', { builtInTools: ['demo', 'agents'] });
    const template = Template.fromStack(stack);
    const resources = template.toJSON().Resources;
    const invokeTool = stack.getLogicalId(agent.functions['invoke-tool'].node.defaultChild as CfnFunction);
    expect(resources[invokeTool].Properties.Timeout).toBe(15 * 60);
    const loop = stack.getLogicalId(agent.stateMachine.node.defaultChild as CfnResource);
    expect(statementsOf(template, stack, 'invoke-tool', agent)).toContainEqual({
      Action: 'states:StartExecution',
      Effect: 'Allow',
      Resource: { Ref: loop },
    });
    // Template.fromStack refuses a template with a dependency cycle, as CloudFormation would: the
    // same grant in the function's default policy makes one, which the policy of its own avoids.
    const cyclic = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Cyclic');
    const naive = new AgentStep(cyclic, 'Agent', { builtInTools: ['agents'] });
    naive.stateMachine.grantStartExecution(naive.functions['invoke-tool']);
    expect(() => Template.fromStack(cyclic)).toThrow(/dependency cycle/);
  });

  it('without the agents toolset, gives the tools function 5 minutes and no StartExecution', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'NoSubAgents');
    const agent = new AgentStep(stack, 'Agent');
    const template = Template.fromStack(stack);
    const invokeTool = stack.getLogicalId(agent.functions['invoke-tool'].node.defaultChild as CfnFunction);
    expect(template.toJSON().Resources[invokeTool].Properties.Timeout).toBe(5 * 60);
    expect(JSON.stringify(statementsOf(template, stack, 'invoke-tool', agent))).not.toContain('states:');
  });

  it('names the calling state machine in every InvokeTool payload, where sub-agents start', async () => {
    const { definition } = await loadAgent();
    const runTools = (definition.States as Record<string, { ItemSelector?: Record<string, string> }>)[
      STATE_NAMES.runTools
    ];
    expect(runTools?.ItemSelector?.['stateMachine.$']).toBe('$$.StateMachine.Id');
  });

  it('times out every task and every execution', async () => {
    const { definition } = await loadAgent();
    type States = Record<
      string,
      { Type: string; TimeoutSeconds?: number; ItemProcessor?: { States: States } }
    >;
    const tasks = (states: States): Array<[string, number | undefined]> =>
      Object.entries(states).flatMap(([name, state]) => [
        ...(state.Type === 'Task' ? [[name, state.TimeoutSeconds] as [string, number | undefined]] : []),
        ...(state.ItemProcessor ? tasks(state.ItemProcessor.States) : []),
      ]);
    const timeouts = Object.fromEntries(tasks(definition.States as unknown as States));
    expect(Object.keys(timeouts)).toHaveLength(14);
    for (const seconds of Object.values(timeouts)) expect(seconds).toBeGreaterThan(0);
    expect(timeouts).toMatchObject({
      ModelStep: 330,
      FinishTurn: 60,
      InvokeTool: 930,
      // It waits for the fresh execution (.sync:2): as long as an execution may run.
      ContinueAsNew: 9 * 24 * 60 * 60,
      DescribeTurn: 60,
      PublishTurnCompleted: 60,
      PublishTurnFailed: 60,
      AwaitApproval: 24 * 60 * 60,
    });
    // The whole turn (its first execution waits for the rest): 7 days plus twice the approval timeout.
    expect((definition as { TimeoutSeconds?: number }).TimeoutSeconds).toBe(9 * 24 * 60 * 60);
  });

  it('alarms on failed, timed-out and aborted executions, announced on a topic when given', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Alarmed');
    const topic = new Topic(stack, 'Pager');
    new AgentStep(stack, 'Agent', { alarmTopic: topic });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: stack.getLogicalId(topic.node.defaultChild as CfnTopic) }],
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: 'failed + timedOut + aborted' }),
        Match.objectLike({
          MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'ExecutionsFailed' }) }),
        }),
        Match.objectLike({
          MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'ExecutionsTimedOut' }) }),
        }),
        Match.objectLike({
          MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'ExecutionsAborted' }) }),
        }),
      ]),
    });
  });

  it('hands the budget to StartTurn and the prices to the model functions, checked at synthesis', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Budget');
    const prices = { 'openai:my-model': { input: 1, output: 2 } };
    const agent = new AgentStep(stack, 'Agent', {
      model: 'openai:my-model',
      budget: { maxTokens: 50_000, maxCostUsd: 2 },
      prices,
    });
    const variables = (step: keyof AgentStep['functions']) =>
      Template.fromStack(stack).toJSON().Resources[
        stack.getLogicalId(agent.functions[step].node.defaultChild as CfnFunction)
      ].Properties.Environment.Variables;
    expect(JSON.parse(variables('start-turn').AGENTSTEP_BUDGET)).toEqual({
      maxTokens: 50_000,
      maxCostUsd: 2,
    });
    expect(JSON.parse(variables('model-step').AGENTSTEP_PRICES)).toEqual(prices);
    expect(() => synth({ budget: { maxTokens: -1 } })).toThrow(
      'AgentStep prop budget is not valid: maxTokens',
    );
    expect(() => synth({ prices: { x: { input: 1 } as never } })).toThrow(
      'AgentStep prop prices is not valid',
    );
  });

  it('fails synthesis on a cost budget for a model without a price, as the CLI refuses it', () => {
    expect(() => synth({ model: 'openai:unpriced', budget: { maxCostUsd: 1 } })).toThrow(
      'AgentStep prop budget.maxCostUsd needs a price for openai:unpriced',
    );
    expect(() => synth({ model: 'openai:gpt-4o-mini', budget: { maxCostUsd: 1 } })).not.toThrow();
  });

  it('hands the model profiles to the model functions only, granting each Bedrock one, checked at synthesis', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Profiles', {
      env: { account: '123456789012', region: 'eu-west-1' },
    });
    const modelProfiles = { fast: 'bedrock:anthropic.claude-haiku-4-5', local: 'scripted' };
    const agent = new AgentStep(stack, 'Agent', { model: 'openai:gpt-4o', modelProfiles });
    const template = Template.fromStack(stack);
    const variables = (step: keyof AgentStep['functions']) =>
      template.toJSON().Resources[stack.getLogicalId(agent.functions[step].node.defaultChild as CfnFunction)]
        .Properties.Environment.Variables;
    for (const step of ['model-step', 'advance-turn'] as const) {
      expect(JSON.parse(variables(step).AGENTSTEP_MODEL_PROFILES)).toEqual(modelProfiles);
      const bedrock = statementsOf(template, stack, step, agent).filter(
        (statement: { Action: string }) => statement.Action === 'bedrock:InvokeModelWithResponseStream',
      );
      expect(JSON.stringify(bedrock)).toContain(
        ':bedrock:eu-west-1::foundation-model/anthropic.claude-haiku-4-5',
      );
    }
    expect(variables('start-turn').AGENTSTEP_MODEL_PROFILES).toBeUndefined();
    expect(() => synth({ modelProfiles: { fast: 'gpt-4o' } })).toThrow(
      'AgentStep prop modelProfiles is not valid: fast: expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", received "gpt-4o"',
    );
    expect(() =>
      synth({
        model: 'openai:gpt-4o-mini',
        modelProfiles: { big: 'openai:unpriced' },
        budget: { maxCostUsd: 1 },
      }),
    ).toThrow('AgentStep prop budget.maxCostUsd needs a price for openai:unpriced');
  });

  it.each([0, 41, 2.5])('refuses maxConcurrency %s with a clear error', (maxConcurrency) => {
    expect(() => synth({ maxConcurrency })).toThrow('maxConcurrency must be a whole number from 1 to 40');
  });
});

describe('AgentStep’s HTTP API (synthesized)', () => {
  const jwt = { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' };

  /** A stack with one agent and its template. */
  function synthApi(props: AgentStepProps = {}) {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Api');
    const agent = new AgentStep(stack, 'Agent', props);
    const template = Template.fromStack(stack);
    const logicalId = (fn: IFunction | undefined) => stack.getLogicalId(fn?.node.defaultChild as CfnFunction);
    const variables = (fn: IFunction | undefined) =>
      template.toJSON().Resources[logicalId(fn)].Properties.Environment.Variables;
    return { stack, agent, template, logicalId, variables };
  }

  it('serves every path and method from one regional REST API, streaming from the API function for up to 15 minutes', () => {
    const { agent, template, logicalId } = synthApi();
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    template.resourceCountIs('AWS::ApiGateway::Resource', 1);
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: '{proxy+}' });
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));
    expect(methods).toHaveLength(2);
    const api = logicalId(agent.apiFunctions.api);
    for (const { Properties } of methods) {
      expect(Properties).toMatchObject({
        HttpMethod: 'ANY',
        RequestValidatorId: expect.anything(),
        Integration: { Type: 'AWS_PROXY', ResponseTransferMode: 'STREAM', TimeoutInMillis: 900_000 },
      });
      // Streaming calls InvokeWithResponseStream, under its own path.
      const uri = JSON.stringify(Properties.Integration.Uri);
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(api);
    }
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', {
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Timeout: 15 * 60,
      Environment: { Variables: Match.objectLike({ AGENTSTEP_API_AUTH: 'iam' }) },
    });
    // The API function is no step: the local engine routes no task to it.
    expect(JSON.stringify(template.toJSON().Resources[api].Properties.Environment)).not.toContain(
      'AGENTSTEP_STEP',
    );
  });

  it('authorizes every method with AWS_IAM by default, with no authorizer function', () => {
    const { agent, template } = synthApi();
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::Method')))
      expect(Properties.AuthorizationType).toBe('AWS_IAM');
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 0);
    expect(Object.keys(agent.apiFunctions)).toEqual(['api']);
  });

  it('authorizes every method with the JWT authorizer, whose function gets the issuer and audience', () => {
    const { agent, stack, template, logicalId, variables } = synthApi({ api: { auth: { jwt } } });
    const [authorizer] = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'));
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'TOKEN',
      IdentitySource: 'method.request.header.Authorization',
    });
    const uri = JSON.stringify(template.toJSON().Resources[authorizer ?? ''].Properties.AuthorizerUri);
    expect(uri).toContain(logicalId(agent.apiFunctions['api-authorizer']));
    for (const { Properties } of Object.values(template.findResources('AWS::ApiGateway::Method')))
      expect(Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizer } });
    expect(variables(agent.apiFunctions['api-authorizer'])).toEqual({
      AGENTSTEP_JWT_ISSUER: jwt.issuer,
      AGENTSTEP_JWT_AUDIENCE: jwt.audience,
      POWERTOOLS_SERVICE_NAME: 'agentstep',
    });
    expect(variables(agent.apiFunctions.api)).toMatchObject({ AGENTSTEP_API_AUTH: 'jwt' });
    // The authorizer only checks tokens: it may touch neither the table nor the state machine.
    const reach = JSON.stringify(
      roleStatements(template, stack, agent.apiFunctions['api-authorizer'] as IFunction),
    );
    expect(reach).not.toMatch(/dynamodb:|states:/);
  });

  it('gives the API function the table, the loop and the workflows to start, the loop’s executions to list and stop, and both machines’ task results to send; nothing more', () => {
    const { agent, stack, template, logicalId, variables } = synthApi();
    const api = agent.apiFunctions.api as IFunction;
    const table = stack.getLogicalId(agent.table.node.defaultChild as CfnResource);
    const machine = stack.getLogicalId(agent.stateMachine.node.defaultChild as CfnResource);
    const workflows = stack.getLogicalId(agent.workflowStateMachine.node.defaultChild as CfnResource);
    expect(variables(api)).toMatchObject({
      AGENTSTEP_TABLE: { Ref: table },
      AGENTSTEP_STATE_MACHINE: { Ref: machine },
      AGENTSTEP_WORKFLOW_STATE_MACHINE: { Ref: workflows },
    });
    const statements = roleStatements(template, stack, api);
    const actions = (prefix: string) =>
      statements
        .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
        .filter((action: string) => action.startsWith(prefix))
        .sort();
    expect(actions('dynamodb:')).toEqual(LOOP_TABLE_ACTIONS);
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:StartExecution', Resource: { Ref: machine } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:StartExecution', Resource: { Ref: workflows } }),
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: 'states:ListExecutions', Resource: { Ref: machine } }),
    );
    const stop = statements.find(
      (statement: { Action: unknown }) => statement.Action === 'states:StopExecution',
    );
    expect(JSON.stringify(stop?.Resource)).toContain(':execution:');
    // Each machine's task results: its own statement, on that machine.
    expect(actions('states:')).toEqual([
      'states:ListExecutions',
      'states:SendTaskFailure',
      'states:SendTaskFailure',
      'states:SendTaskHeartbeat',
      'states:SendTaskHeartbeat',
      'states:SendTaskSuccess',
      'states:SendTaskSuccess',
      'states:StartExecution',
      'states:StartExecution',
      'states:StopExecution',
    ]);
    // The API may invoke only its own function, through one API-scoped permission.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [logicalId(api), 'Arn'] },
      Principal: 'apigateway.amazonaws.com',
    });
  });

  it('logs access, traces and throttles the stage, and answers its own refusals in the API’s error shape', () => {
    const { template } = synthApi({ api: { throttle: { rateLimit: 10, burstLimit: 20 } } });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [
        Match.objectLike({ LoggingLevel: 'ERROR', ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }),
      ],
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"error":\\{"code":"Unauthorized"') },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '401',
    });
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    const { template: withoutRole } = synthApi({ api: { cloudWatchRole: false } });
    withoutRole.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('creates no API, and no API function, with api: false', () => {
    const { agent, template } = synthApi({ api: false });
    template.resourceCountIs('AWS::ApiGateway::RestApi', 0);
    template.resourceCountIs('AWS::Lambda::Function', 14);
    expect(agent.api).toBeUndefined();
    expect(agent.apiFunctions).toEqual({});
  });

  it('outputs the API’s URL from AgentStepStack, and no URL without an API', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new AgentStepStack(app, 'WithApi');
    const restApi = stack.getLogicalId(stack.agent.api?.node.defaultChild as CfnResource);
    const output = Template.fromStack(stack).toJSON().Outputs.ApiUrl;
    expect(JSON.stringify(output.Value)).toContain('https://');
    expect(output.Value['Fn::Join'][1]).toContainEqual({ Ref: restApi });
    const without = new AgentStepStack(
      new App({ context: { 'aws:cdk:bundling-stacks': [] } }),
      'WithoutApi',
      {
        agent: { api: false },
      },
    );
    expect(Template.fromStack(without).toJSON().Outputs?.ApiUrl).toBeUndefined();
  });
});

describe('AgentStepStack under cdk-nag’s AWS Solutions checks', () => {
  /** Synthesizes the stack with the checks; returns every finding not acknowledged. */
  function nagErrors(props: AgentStepStackProps): string[] {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    new AgentStepStack(app, 'Nag', props);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    try {
      app.synth();
      return [];
    } catch (error) {
      return [String(error instanceof Error ? error.message : error)];
    }
  }

  it.each([
    ['the demo agent with a workspace', { agent: { builtInTools: ['demo', 'workspace'] } }],
    [
      'the API behind the JWT authorizer, without the account logs role',
      {
        agent: {
          api: {
            auth: { jwt: { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' } },
            cloudWatchRole: false,
          },
        },
      },
    ],
    [
      'the web console on CloudFront',
      {
        agent: {
          api: {
            auth: { jwt: { issuer: 'https://issuer.example.com/', audience: 'agentstep-api' } },
            console: true,
          },
        },
      },
    ],
    ['no API', { agent: { api: false as const } }],
    [
      'a Bedrock inference profile and an API key secret',
      {
        agent: { model: 'bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0' },
        modelApiKeySecret: 'agent/key',
      },
    ],
    [
      'a model profile on a Bedrock inference profile',
      { agent: { modelProfiles: { fast: 'bedrock:eu.anthropic.claude-haiku-4-5-20251001-v1:0' } } },
    ],
  ])('passes with %s: every accepted finding is acknowledged with a reason', (_, props) => {
    expect(nagErrors(props)).toEqual([]);
  });

  it('fails on a finding nobody acknowledged (the checks are live)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new AgentStepStack(app, 'Unchecked');
    new Secret(stack, 'NoRotation');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SMG4/);
  });
});
