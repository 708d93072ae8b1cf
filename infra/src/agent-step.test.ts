import { EVENT_LOG_KEYS } from '@agentstep/runtime/dynamo';
import { Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import type { AgentStep, AgentStepProps } from './agent-step.js';
import { actionsOf, LOOP_TABLE_ACTIONS, roleStatements, type Statement } from './testing/role-statements.js';
import {
  defaultAgent,
  environmentOf,
  logicalId,
  newAgent,
  type SynthesizedAgent,
  synthAgent,
} from './testing/synth-agent.js';

type Step = keyof AgentStep['functions'];

/** Every statement of the policies attached to one step's role. */
function statementsOf({ template, agent }: SynthesizedAgent, step: Step): Statement[] {
  return roleStatements(template, agent.functions[step]);
}

/** One step's environment variables. */
function variablesOf({ template, agent }: SynthesizedAgent, step: Step): Record<string, unknown> {
  return environmentOf(template, agent.functions[step]);
}

/** Synthesizing an agent with `props` (bundling skipped): what a prop refused at synthesis throws. */
function synthesizing(props: AgentStepProps): () => void {
  return () => synthAgent(props);
}

describe('AgentStep (synthesized)', () => {
  const { template } = synthAgent({ builtInTools: ['demo', 'workspace'] });

  it('deploys every step, the operator and the API function on Node.js 22, arm64, with its own log group and role', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(17);
    for (const { Properties } of Object.values(functions)) {
      expect(Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogGroup: expect.anything() },
      });
    }
    // One per function, the loop's and the workflows' state machines', and the API's access logs.
    template.resourceCountIs('AWS::Logs::LogGroup', 20);
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
      .flatMap((statement: Statement) => [statement.Action].flat())
      .filter((action: string) => action.startsWith('s3:'));
    expect(new Set(actions)).toEqual(new Set(['s3:GetObject', 's3:PutObject', 's3:ListBucket']));
  });

  it('creates no bucket without the workspace toolset', () => {
    defaultAgent().template.resourceCountIs('AWS::S3::Bucket', 0);
  });

  it('offers an existing Lambda as a tool: described to the model, invocable by the tools function only', () => {
    let weather: LambdaFunction | undefined;
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const withTool = synthAgent((stack) => {
      weather = new LambdaFunction(stack, 'Weather', {
        runtime: Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: Code.fromInline('exports.handler = async () => ({ forecast: "sun" })'),
      });
      return {
        lambdaTools: [
          { name: 'weather', description: 'Forecast for a city.', parameters, function: weather },
        ],
      };
    });
    expect(JSON.stringify(variablesOf(withTool, 'invoke-tool').AGENTSTEP_LAMBDA_TOOLS)).toContain(
      'Forecast for a city.',
    );
    const invokers = Object.values(withTool.template.findResources('AWS::IAM::Policy')).filter(
      ({ Properties }) => JSON.stringify(Properties.PolicyDocument).includes(logicalId(weather)),
    );
    expect(invokers).toHaveLength(1);
    expect(JSON.stringify(invokers[0]?.Properties.Roles)).toContain('invoketool');
  });

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
      const bedrockAgent = synthAgent(
        { model: `bedrock:${modelId}` },
        { env: { account: '123456789012', region: 'eu-west-1' } },
      );
      for (const step of ['model-step', 'advance-turn'] as const) {
        const bedrock = statementsOf(bedrockAgent, step).filter(
          (statement) => statement.Action === 'bedrock:InvokeModelWithResponseStream',
        );
        expect(bedrock).toHaveLength(1);
        const granted = [bedrock[0]?.Resource].flat().map((arn: unknown) => JSON.stringify(arn));
        expect(granted).toHaveLength(resources.length);
        for (const [index, resource] of resources.entries()) expect(granted[index]).toContain(resource);
      }
      expect(JSON.stringify(statementsOf(bedrockAgent, 'invoke-tool'))).not.toContain('bedrock:');
    },
  );

  it('gives the model functions the API key secret’s ARN and read access to it, and no other function', () => {
    let modelApiKey: ISecret | undefined;
    const withSecret = synthAgent((stack) => {
      // A cast: CDK's Secret and ISecret disagree under exactOptionalPropertyTypes (secretFullArn).
      modelApiKey = new Secret(stack, 'OpenAIKey') as ISecret;
      return { model: 'openai:gpt-4o', modelApiKey };
    });
    for (const step of ['model-step', 'advance-turn'] as const) {
      expect(variablesOf(withSecret, step).AGENTSTEP_MODEL_API_KEY_SECRET).toEqual({
        Ref: logicalId(modelApiKey),
      });
      expect(statementsOf(withSecret, step)).toContainEqual(
        expect.objectContaining({
          Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        }),
      );
    }
    expect(JSON.stringify(statementsOf(withSecret, 'start-turn'))).not.toContain('secretsmanager');
  });

  it('gives each step only the table actions it uses: no scans, deletes only of queued messages, no head updates for tools', () => {
    const agent = defaultAgent();
    const tableActions = (step: Step) => actionsOf(statementsOf(agent, step), 'dynamodb:');
    for (const step of Object.keys(agent.agent.functions) as Step[]) {
      if (step !== 'start-queued-turn') expect(tableActions(step)).not.toContain('dynamodb:DeleteItem');
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
    const subAgents = synthAgent({ builtInTools: ['demo', 'agents'] });
    const invokeTool =
      subAgents.template.toJSON().Resources[logicalId(subAgents.agent.functions['invoke-tool'])];
    expect(invokeTool.Properties.Timeout).toBe(15 * 60);
    expect(statementsOf(subAgents, 'invoke-tool')).toContainEqual({
      Action: 'states:StartExecution',
      Effect: 'Allow',
      Resource: { Ref: logicalId(subAgents.agent.stateMachine) },
    });
    // Template.fromStack refuses a template with a dependency cycle, as CloudFormation would: the
    // same grant in the function's default policy makes one, which the policy of its own avoids.
    const cyclic = newAgent({ builtInTools: ['agents'] });
    cyclic.agent.stateMachine.grantStartExecution(cyclic.agent.functions['invoke-tool']);
    expect(() => Template.fromStack(cyclic.stack)).toThrow(/dependency cycle/);
  });

  it('without the agents toolset, gives the tools function 5 minutes and no StartExecution', () => {
    const agent = defaultAgent();
    const invokeTool = agent.template.toJSON().Resources[logicalId(agent.agent.functions['invoke-tool'])];
    expect(invokeTool.Properties.Timeout).toBe(5 * 60);
    expect(JSON.stringify(statementsOf(agent, 'invoke-tool'))).not.toContain('states:');
  });

  it('alarms on failed, timed-out and aborted executions, announced on a topic when given', () => {
    let topic: Topic | undefined;
    const { template: alarmed } = synthAgent((stack) => {
      topic = new Topic(stack, 'Pager');
      return { alarmTopic: topic };
    });
    const metric = (name: string) =>
      Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: name }) }) });
    alarmed.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [{ Ref: logicalId(topic) }],
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: 'failed + timedOut + aborted' }),
        metric('ExecutionsFailed'),
        metric('ExecutionsTimedOut'),
        metric('ExecutionsAborted'),
      ]),
    });
  });

  it('hands the budget to StartTurn and the prices to the model functions, checked at synthesis', () => {
    const prices = { 'openai:my-model': { input: 1, output: 2 } };
    const budgeted = synthAgent({
      model: 'openai:my-model',
      budget: { maxTokens: 50_000, maxCostUsd: 2 },
      prices,
    });
    expect(JSON.parse(String(variablesOf(budgeted, 'start-turn').AGENTSTEP_BUDGET))).toEqual({
      maxTokens: 50_000,
      maxCostUsd: 2,
    });
    expect(JSON.parse(String(variablesOf(budgeted, 'model-step').AGENTSTEP_PRICES))).toEqual(prices);
    expect(synthesizing({ budget: { maxTokens: -1 } })).toThrow(
      'AgentStep prop budget is not valid: maxTokens',
    );
    expect(synthesizing({ prices: { x: { input: 1 } as never } })).toThrow(
      'AgentStep prop prices is not valid',
    );
  });

  it('fails synthesis on a cost budget for a model without a price, as the CLI refuses it', () => {
    expect(synthesizing({ model: 'openai:unpriced', budget: { maxCostUsd: 1 } })).toThrow(
      'AgentStep prop budget.maxCostUsd needs a price for openai:unpriced',
    );
    expect(synthesizing({ model: 'openai:gpt-4o-mini', budget: { maxCostUsd: 1 } })).not.toThrow();
  });

  it('hands the model profiles to the model functions only, granting each Bedrock one, checked at synthesis', () => {
    const modelProfiles = { fast: 'bedrock:anthropic.claude-haiku-4-5', local: 'scripted' };
    const profiled = synthAgent(
      { model: 'openai:gpt-4o', modelProfiles },
      { env: { account: '123456789012', region: 'eu-west-1' } },
    );
    for (const step of ['model-step', 'advance-turn'] as const) {
      expect(JSON.parse(String(variablesOf(profiled, step).AGENTSTEP_MODEL_PROFILES))).toEqual(modelProfiles);
      const bedrock = statementsOf(profiled, step).filter(
        (statement) => statement.Action === 'bedrock:InvokeModelWithResponseStream',
      );
      expect(JSON.stringify(bedrock)).toContain(
        ':bedrock:eu-west-1::foundation-model/anthropic.claude-haiku-4-5',
      );
    }
    expect(variablesOf(profiled, 'start-turn').AGENTSTEP_MODEL_PROFILES).toBeUndefined();
    expect(synthesizing({ modelProfiles: { fast: 'gpt-4o' } })).toThrow(
      'AgentStep prop modelProfiles is not valid: fast: expected "scripted" or "bedrock:<model>", "openai:<model>", "anthropic:<model>", received "gpt-4o"',
    );
    expect(
      synthesizing({
        model: 'openai:gpt-4o-mini',
        modelProfiles: { big: 'openai:unpriced' },
        budget: { maxCostUsd: 1 },
      }),
    ).toThrow('AgentStep prop budget.maxCostUsd needs a price for openai:unpriced');
  });

  it('hands the context settings to the model functions only, granting a Bedrock summary model, checked at synthesis', () => {
    const context = {
      windowTokens: 100_000,
      strategy: 'summarize',
      summaryModel: 'bedrock:amazon.nova-lite-v1:0',
    } as const;
    const compacting = synthAgent(
      { model: 'openai:gpt-4o', context },
      { env: { account: '123456789012', region: 'eu-west-1' } },
    );
    for (const step of ['model-step', 'advance-turn'] as const) {
      expect(JSON.parse(String(variablesOf(compacting, step).AGENTSTEP_CONTEXT))).toEqual(context);
      const bedrock = statementsOf(compacting, step).filter(
        (statement) => statement.Action === 'bedrock:InvokeModelWithResponseStream',
      );
      expect(JSON.stringify(bedrock)).toContain(':bedrock:eu-west-1::foundation-model/amazon.nova-lite-v1:0');
    }
    expect(compacting.agent.models).toEqual(['openai:gpt-4o', 'bedrock:amazon.nova-lite-v1:0']);
    expect(variablesOf(compacting, 'start-turn').AGENTSTEP_CONTEXT).toBeUndefined();
    expect(synthesizing({ context: { windowTokens: 500 } })).toThrow(
      'AgentStep prop context is not valid: windowTokens:',
    );
    expect(synthesizing({ context: { summaryModel: 'gpt-4o' } })).toThrow(
      'AgentStep prop context.summaryModel is not valid: context.summaryModel: expected "scripted" or "bedrock:<model>"',
    );
  });

  it('gives the model functions no context settings when neither the props nor an agent file set any', () => {
    for (const step of ['model-step', 'advance-turn'] as const)
      expect(variablesOf(defaultAgent(), step).AGENTSTEP_CONTEXT).toBeUndefined();
    expect(variablesOf(synthAgent({ context: {} }), 'model-step').AGENTSTEP_CONTEXT).toBeUndefined();
  });

  it.each([0, 41, 2.5])('refuses maxConcurrency %s with a clear error', (maxConcurrency) => {
    expect(synthesizing({ maxConcurrency })).toThrow('maxConcurrency must be a whole number from 1 to 40');
  });

  it('grants starting turns and reading sessions with exactly the actions they take', () => {
    const { stack, agent } = newAgent({ api: false });
    const starter = new Role(stack, 'Starter', { assumedBy: new AccountRootPrincipal() });
    const reader = new Role(stack, 'Reader', { assumedBy: new AccountRootPrincipal() });
    agent.grantStartTurn(starter);
    agent.grantReadSessions(reader);
    const granted = Template.fromStack(stack);
    expect(roleStatements(granted, starter)).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: logicalId(agent.stateMachine) } },
    ]);
    expect(roleStatements(granted, reader)).toEqual([
      {
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [logicalId(agent.table), 'Arn'] },
      },
    ]);
  });
});

describe('AgentStep approvals (synthesized)', () => {
  it('tells the model functions and the API which tools wait, and for how long', () => {
    const approving = synthAgent((stack) => ({
      approvals: ['http_fetch'],
      approvalTimeout: Duration.minutes(5),
      lambdaTools: [
        {
          name: 'deploy',
          description: 'Deploys.',
          parameters: { type: 'object', properties: {} },
          function: new LambdaFunction(stack, 'Deploy', {
            runtime: Runtime.NODEJS_22_X,
            handler: 'index.handler',
            code: Code.fromInline('exports.handler = async () => 1;'),
          }),
          approval: true,
          idempotent: true,
          passIdempotencyKey: true,
        },
      ],
    }));
    const { agent, template } = approving;
    for (const fn of [
      agent.functions['model-step'],
      agent.functions['advance-turn'],
      agent.apiFunctions.api,
    ]) {
      expect(environmentOf(template, fn)).toMatchObject({
        AGENTSTEP_APPROVALS: 'http_fetch',
        AGENTSTEP_APPROVAL_TIMEOUT_SECONDS: '300',
      });
    }
    expect(JSON.stringify(variablesOf(approving, 'model-step'))).toContain('\\"approval\\":true');
    // The tools function knows it may run the tool again, and passes it the call's key.
    const tools = JSON.stringify(variablesOf(approving, 'invoke-tool'));
    expect(tools).toContain('\\"idempotent\\":true');
    expect(tools).toContain('\\"passIdempotencyKey\\":true');
  });

  it('lets only the API function send the loop’s task results', () => {
    const { agent, template } = synthAgent({ approvals: ['*'] });
    const senders = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter(({ Properties }) =>
        JSON.stringify(Properties.PolicyDocument).includes('states:SendTaskSuccess'),
      )
      .map(({ Properties }) => JSON.stringify(Properties.Roles));
    expect(senders).toEqual([JSON.stringify([{ Ref: logicalId(agent.apiFunctions.api?.role) }])]);
  });

  it('refuses an approval timeout under a second and a name that is no tool, at synthesis', () => {
    expect(synthesizing({ approvalTimeout: Duration.seconds(0) })).toThrow(/approvalTimeout/);
    expect(synthesizing({ approvals: ['not a tool!'] })).toThrow(/approvals names "not a tool!"/);
  });
});
