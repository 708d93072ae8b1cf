import { turnRequestSchema } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import type { EventTurnOptions } from './event-turn-target.js';
import { fillInputTemplate, valueAt } from './testing/fill-input-template.js';
import { roleStatements } from './testing/role-statements.js';
import { logicalId, triggerStack } from './testing/synth-agent.js';

/** The input the rule's target, the loop's live alias, sends for `event`. */
function ruleInput(template: Template, live: string, event: unknown, rule?: string) {
  const targets = Object.entries(template.findResources('AWS::Events::Rule'))
    .filter(([id]) => rule === undefined || id === rule)
    .flatMap(([, { Properties }]) => Properties.Targets)
    .filter((target) => target.Arn.Ref === live);
  expect(targets).toHaveLength(1);
  const { InputPathsMap, InputTemplate } = targets[0].InputTransformer;
  return fillInputTemplate(InputTemplate, (name) => valueAt(event, InputPathsMap[name]));
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

describe('AgentStep triggers on EventBridge rules and schedules (synthesized)', () => {
  it('starts a turn on a schedule: its rule targets the state machine with the message, the fixed fields and the event id as requestId', () => {
    const { stack, agent, live } = triggerStack();
    const rule = agent.runOnSchedule(Schedule.rate(Duration.days(1)), {
      message: 'Write the daily report.',
      session: 'daily-report',
      tenant: 'ops',
      maxSteps: 10,
      budget: { maxTokens: 50_000 },
    });
    const template = Template.fromStack(stack);
    const ruleId = logicalId(rule);
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 day)' });
    const input = ruleInput(template, live, { ...ORDER_EVENT, detail: {} }, ruleId);
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
    const { stack, agent, live } = triggerStack();
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
    expect(ruleInput(template, live, ORDER_EVENT)).toEqual({
      message: 'Order o-42 of ada (book) failed.',
      requestId: ORDER_EVENT.id,
    });
  });

  it("passes a message that is one placeholder as the field's JSON value, intact whatever text it holds", () => {
    const { stack, agent, live } = triggerStack();
    agent.runOnEvent(new Rule(stack, 'Notes', { eventPattern: { source: ['shop'] } }), {
      message: '<$.detail.note>',
    });
    const input = ruleInput(Template.fromStack(stack), live, ORDER_EVENT);
    expect(input).toEqual({ message: ORDER_EVENT.detail.note, requestId: ORDER_EVENT.id });
  });

  it('retries a failed start 8 times within an hour, then dead-letters the event to one encrypted, TLS-only queue that only its rules may send to', () => {
    const { stack, agent } = triggerStack();
    const first = agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Check the inbox.' });
    const second = agent.runOnSchedule(Schedule.cron({ hour: '6', minute: '0' }), {
      message: 'Plan the day.',
    });
    const template = Template.fromStack(stack);
    const queue = logicalId(agent.triggerDeadLetterQueue);
    template.resourceCountIs('AWS::SQS::Queue', 1);
    template.resourceCountIs('AWS::Events::Rule', 4); // the two schedules, StoppedExecutions and TurnEnded
    for (const rule of [first, second]) {
      const ruleId = logicalId(rule);
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
        ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [logicalId(rule), 'Arn'] } },
      })),
    );
    for (const send of sends)
      expect(send).toMatchObject({
        Action: 'sqs:SendMessage',
        Principal: { Service: 'events.amazonaws.com' },
      });
  });

  it('uses a given dead-letter queue and retry policy, and creates no queue of its own', () => {
    const { stack, agent } = triggerStack();
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
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId(mine), 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 },
        }),
      ],
    });
  });

  it("lets the rules' role start executions of this state machine and do nothing else", () => {
    const { stack, agent, machine, live } = triggerStack();
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
      for (const target of Properties.Targets.filter((t: { Arn: { Ref?: string } }) => t.Arn.Ref === live))
        expect(target.RoleArn).toEqual({ 'Fn::GetAtt': [role, 'Arn'] });
    }
    expect(roleStatements(template, role ?? '')).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: machine } },
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
    const { agent } = triggerStack();
    expect(() =>
      agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Hi', ...options }),
    ).toThrow(error);
  });
});
