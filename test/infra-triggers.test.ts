import { AgentStep, AgentStepStack, type EventTurnOptions } from '@agentstep/infra';
import { turnRequestSchema } from '@agentstep/protocol';
import { App, type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';

/** A stack with an agent (no API, to keep it small) to add triggers to. */
function agentStack() {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Triggers');
  const agent = new AgentStep(stack, 'Agent', { api: false });
  const machine = idOf(agent.stateMachine);
  return { stack, agent, machine };
}

/** The logical id of a construct's resource in its stack. */
function idOf(construct: { node: { defaultChild?: unknown } } | undefined): string {
  const resource = construct?.node.defaultChild as CfnElement;
  return Stack.of(resource).getLogicalId(resource);
}

/** A value at a JSONPath in dot notation with `[n]` indices, as input transformers select it. */
function at(source: unknown, path: string): unknown {
  const steps = path.replace(/^\$/, '').match(/[^.[\]]+/g) ?? [];
  return steps.reduce<unknown>((value, step) => (value as Record<string, unknown>)[step], source);
}

/**
 * What EventBridge and Pipes make of an input template (their documented behaviour): a bare
 * placeholder becomes the value's JSON, one inside a string the value's raw text, unescaped.
 */
function fill(template: string, lookup: (name: string) => unknown): unknown {
  return JSON.parse(
    template.replace(/(:?)<([^<>]+)>/g, (_, colon: string, name: string) =>
      colon ? `${colon}${JSON.stringify(lookup(name))}` : String(lookup(name)),
    ),
  );
}

/** The input the rule's target on the state machine sends for `event`. */
function ruleInput(template: Template, machine: string, event: unknown, rule?: string) {
  const targets = Object.entries(template.findResources('AWS::Events::Rule'))
    .filter(([id]) => rule === undefined || id === rule)
    .flatMap(([, { Properties }]) => Properties.Targets)
    .filter((target) => target.Arn.Ref === machine);
  expect(targets).toHaveLength(1);
  const { InputPathsMap, InputTemplate } = targets[0].InputTransformer;
  return fill(InputTemplate, (name) => at(event, InputPathsMap[name]));
}

/** Every statement of the policies attached to a role. */
function roleStatements(template: Template, role: string) {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes(`"${role}"`))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement);
}

const ORDER_EVENT = {
  version: '0',
  id: '7bf73129-1428-4cd3-a780-95db273d1602',
  'detail-type': 'Order Failed',
  source: 'shop',
  time: '2026-11-23T10:00:00Z',
  detail: {
    orderId: 'o-42',
    customer: 'ada',
    note: 'Said "ship it"\nthen left \\ for good.',
    items: ['book'],
  },
};

describe('AgentStep triggers (synthesized)', () => {
  it('starts a turn on a schedule: its rule targets the state machine with the message, the fixed fields and the event id as requestId', () => {
    const { stack, agent, machine } = agentStack();
    const rule = agent.runOnSchedule(Schedule.rate(Duration.days(1)), {
      message: 'Write the daily report.',
      session: 'daily-report',
      tenant: 'ops',
      maxSteps: 10,
      budget: { maxTokens: 50_000 },
    });
    const template = Template.fromStack(stack);
    const ruleId = idOf(rule);
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 day)' });
    const input = ruleInput(template, machine, { ...ORDER_EVENT, detail: {} }, ruleId);
    expect(input).toEqual({
      message: 'Write the daily report.',
      session: 'daily-report',
      tenant: 'ops',
      maxSteps: 10,
      budget: { maxTokens: 50_000 },
      requestId: ORDER_EVENT.id,
    });
    expect(turnRequestSchema.safeParse(input).success).toBe(true);
  });

  it("fills each placeholder of an event rule's message from the event, with one input transformer that maps the event id", () => {
    const { stack, agent, machine } = agentStack();
    const rule = new Rule(stack, 'OrderFailed', { eventPattern: { source: ['shop'] } });
    agent.runOnEvent(rule, {
      message: 'Order <$.detail.orderId> of <$.detail.customer> (<$.detail.items[0]>) failed.',
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Events::Rule', {
      Targets: [
        Match.objectLike({
          InputTransformer: {
            InputPathsMap: {
              'detail-orderId': '$.detail.orderId',
              'detail-customer': '$.detail.customer',
              'detail-items-0-': '$.detail.items[0]',
              id: '$.id',
            },
            InputTemplate: Match.stringLikeRegexp('"requestId":<id>'),
          },
        }),
      ],
    });
    expect(ruleInput(template, machine, ORDER_EVENT)).toEqual({
      message: 'Order o-42 of ada (book) failed.',
      requestId: ORDER_EVENT.id,
    });
  });

  it("passes a message that is one placeholder as the field's JSON value, intact whatever text it holds", () => {
    const { stack, agent, machine } = agentStack();
    agent.runOnEvent(new Rule(stack, 'Notes', { eventPattern: { source: ['shop'] } }), {
      message: '<$.detail.note>',
    });
    const input = ruleInput(Template.fromStack(stack), machine, ORDER_EVENT);
    expect(input).toEqual({ message: ORDER_EVENT.detail.note, requestId: ORDER_EVENT.id });
  });

  it('retries a failed start 8 times within an hour, then dead-letters the event to one encrypted, TLS-only queue that only its rules may send to', () => {
    const { stack, agent } = agentStack();
    const first = agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Check the inbox.' });
    const second = agent.runOnSchedule(Schedule.cron({ hour: '6', minute: '0' }), {
      message: 'Plan the day.',
    });
    const template = Template.fromStack(stack);
    const queue = idOf(agent.triggerDeadLetterQueue);
    template.resourceCountIs('AWS::SQS::Queue', 1);
    template.resourceCountIs('AWS::Events::Rule', 3); // the two schedules and StoppedExecutions
    for (const rule of [first, second]) {
      const ruleId = idOf(rule);
      expect(template.toJSON().Resources[ruleId].Properties.Targets).toEqual([
        expect.objectContaining({
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 3600 },
        }),
      ]);
    }
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    const [policy] = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    const statements = policy?.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const sends = statements.filter((statement: { Effect: string }) => statement.Effect === 'Allow');
    expect(sends.map((statement: { Condition: unknown }) => statement.Condition)).toEqual(
      [first, second].map((rule) => ({
        ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [idOf(rule), 'Arn'] } },
      })),
    );
    for (const send of sends)
      expect(send).toMatchObject({
        Action: 'sqs:SendMessage',
        Principal: { Service: 'events.amazonaws.com' },
      });
  });

  it('uses a given dead-letter queue and retry policy, and creates no queue of its own', () => {
    const { stack, agent } = agentStack();
    const mine = new Queue(stack, 'Mine', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    agent.runOnSchedule(Schedule.rate(Duration.hours(1)), {
      message: 'Check the inbox.',
      deadLetterQueue: mine,
      retryAttempts: 2,
      maxEventAge: Duration.minutes(10),
    });
    const template = Template.fromStack(stack);
    expect(agent.triggerDeadLetterQueue).toBeUndefined();
    template.resourceCountIs('AWS::SQS::Queue', 1);
    template.hasResourceProperties('AWS::Events::Rule', {
      Targets: [
        Match.objectLike({
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [idOf(mine), 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 },
        }),
      ],
    });
  });

  it("lets the rules' role start executions of this state machine and do nothing else", () => {
    const { stack, agent, machine } = agentStack();
    agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Check the inbox.' });
    agent.runOnEvent(new Rule(stack, 'Orders', { eventPattern: { source: ['shop'] } }), {
      message: 'New order.',
    });
    const template = Template.fromStack(stack);
    const roles = Object.entries(template.findResources('AWS::IAM::Role')).filter(([, { Properties }]) =>
      JSON.stringify(Properties.AssumeRolePolicyDocument).includes('events.amazonaws.com'),
    );
    expect(roles).toHaveLength(1);
    const [role] = roles[0] ?? [];
    for (const [, { Properties }] of Object.entries(template.findResources('AWS::Events::Rule'))) {
      for (const target of Properties.Targets.filter((t: { Arn: { Ref?: string } }) => t.Arn.Ref === machine))
        expect(target.RoleArn).toEqual({ 'Fn::GetAtt': [role, 'Arn'] });
    }
    expect(roleStatements(template, role ?? '')).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: machine } },
    ]);
  });

  it('starts a turn per queue message through a pipe: batch size 1, fire and forget, the body as the message and the SQS message id as requestId', () => {
    const { stack, agent, machine } = agentStack();
    const queue = new Queue(stack, 'Requests');
    agent.runOnQueue(queue, { session: 'inbox', maxSteps: 5 });
    const template = Template.fromStack(stack);
    const queueId = idOf(queue);
    const [pipe] = Object.values(template.findResources('AWS::Pipes::Pipe'));
    expect(pipe?.Properties).toMatchObject({
      Source: { 'Fn::GetAtt': [queueId, 'Arn'] },
      SourceParameters: { SqsQueueParameters: { BatchSize: 1 } },
      Target: { Ref: machine },
      TargetParameters: { StepFunctionStateMachineParameters: { InvocationType: 'FIRE_AND_FORGET' } },
    });
    const record = { messageId: '059f36b4-87a3-44ab-83d2-661975830a7d', body: 'Reply to "Ada":\nthanks!' };
    const input = fill(pipe?.Properties.TargetParameters.InputTemplate, (path) => at(record, path));
    expect(input).toEqual({
      message: record.body,
      requestId: record.messageId,
      session: 'inbox',
      maxSteps: 5,
    });
    expect(turnRequestSchema.safeParse(input).success).toBe(true);
  });

  it("fills a queue trigger's message template from a JSON body's fields", () => {
    const { stack, agent } = agentStack();
    agent.runOnQueue(new Queue(stack, 'Tickets'), {
      message: 'Triage ticket <$.body.ticketId> from <$.body.team>.',
    });
    const [pipe] = Object.values(Template.fromStack(stack).findResources('AWS::Pipes::Pipe'));
    const record = { messageId: 'm-1', body: { ticketId: 'T-7', team: 'billing' } };
    expect(fill(pipe?.Properties.TargetParameters.InputTemplate, (path) => at(record, path))).toEqual({
      message: 'Triage ticket T-7 from billing.',
      requestId: 'm-1',
    });
  });

  it('gives the pipe a role that only pipes of this account may take, which may only consume its queue and start this state machine', () => {
    const { stack, agent, machine } = agentStack();
    const queue = new Queue(stack, 'Requests');
    const { role, pipe } = agent.runOnQueue(queue);
    const template = Template.fromStack(stack);
    const roleId = idOf(role);
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          {
            Action: 'sts:AssumeRole',
            Effect: 'Allow',
            Principal: { Service: 'pipes.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ],
      },
    });
    expect(roleStatements(template, roleId)).toEqual([
      {
        Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [idOf(queue), 'Arn'] },
      },
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: machine } },
    ]);
    const pipeResource = template.toJSON().Resources[stack.getLogicalId(pipe)];
    expect(pipeResource.Properties.RoleArn).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    // Created after its role's policy, so the pipe can read the queue from its first poll.
    expect(pipeResource.DependsOn).toEqual(
      expect.arrayContaining([roleId, expect.stringMatching(/DefaultPolicy/)]),
    );
  });

  it('grants starting turns and reading sessions with exactly the actions they take', () => {
    const { stack, agent, machine } = agentStack();
    const starter = new Role(stack, 'Starter', { assumedBy: new AccountRootPrincipal() });
    const reader = new Role(stack, 'Reader', { assumedBy: new AccountRootPrincipal() });
    agent.grantStartTurn(starter);
    agent.grantReadSessions(reader);
    const template = Template.fromStack(stack);
    const table = idOf(agent.table);
    expect(roleStatements(template, idOf(starter))).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: machine } },
    ]);
    expect(roleStatements(template, idOf(reader))).toEqual([
      {
        Action: ['dynamodb:GetItem', 'dynamodb:Query'],
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [table, 'Arn'] },
      },
    ]);
  });

  it.each<[string, Partial<EventTurnOptions>, RegExp]>([
    [
      'an empty message',
      { message: '' },
      /runOnSchedule option message is not valid: message: must not be empty/,
    ],
    [
      'a placeholder of the whole event',
      { message: 'Look at <$>' },
      /placeholder <\$>, which selects no field/,
    ],
    [
      'a placeholder in bracket notation',
      { message: 'Look at <$.detail["a"]>' },
      /placeholder <\$\.detail\["a"\]>/,
    ],
    ['a "<" outside a placeholder', { message: 'Alert if a < b' }, /"<" or ">" outside a placeholder/],
    [
      'an invalid session id',
      { message: 'Hi', session: '../etc' },
      /runOnSchedule option session is not valid/,
    ],
    ['zero steps', { message: 'Hi', maxSteps: 0 }, /runOnSchedule option maxSteps is not valid/],
    [
      'an unknown budget field',
      { message: 'Hi', budget: { maxDollars: 1 } as never },
      /option budget is not valid/,
    ],
    [
      'too many retries',
      { message: 'Hi', retryAttempts: 186 },
      /retryAttempts must be a whole number from 0 to 185/,
    ],
    [
      'a max event age under a minute',
      { message: 'Hi', maxEventAge: Duration.seconds(30) },
      /maxEventAge must be/,
    ],
  ])('refuses %s at synthesis, saying what to write', (_, options, error) => {
    const { agent } = agentStack();
    expect(() =>
      agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Hi', ...options }),
    ).toThrow(error);
  });

  it('refuses a queue message template that selects no field, at synthesis', () => {
    const { stack, agent } = agentStack();
    expect(() => agent.runOnQueue(new Queue(stack, 'Requests'), { message: '<$.>' })).toThrow(
      /runOnQueue message has the placeholder <\$\.>/,
    );
  });
});

describe('AgentStepStack with every trigger under cdk-nag’s AWS Solutions checks', () => {
  it('synthesizes offline with no finding left unacknowledged', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new AgentStepStack(app, 'Nag');
    const { agent } = stack;
    agent.runOnSchedule(Schedule.rate(Duration.days(1)), {
      message: 'Write the daily report.',
      session: 'daily',
    });
    agent.runOnEvent(new Rule(stack, 'Orders', { eventPattern: { source: ['shop'] } }), {
      message: 'Order <$.detail.orderId> failed.',
    });
    const dlq = new Queue(stack, 'RequestsDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const requests = new Queue(stack, 'Requests', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
    });
    agent.runOnQueue(requests);
    agent.grantStartTurn(new Role(stack, 'Starter', { assumedBy: new AccountRootPrincipal() }));
    agent.grantReadSessions(new Role(stack, 'Reader', { assumedBy: new AccountRootPrincipal() }));
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  });
});
