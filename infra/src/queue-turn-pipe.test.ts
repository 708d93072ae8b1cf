import { turnRequestSchema } from '@agentstep/protocol';
import { Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { fillInputTemplate, valueAt } from './testing/fill-input-template.js';
import { roleStatements } from './testing/role-statements.js';
import { logicalId, triggerStack } from './testing/synth-agent.js';

describe('AgentStep triggers on SQS queues (synthesized)', () => {
  it('starts a turn per queue message through a pipe to the live alias: batch size 1, fire and forget, the body as the message and the SQS message id as requestId', () => {
    const { stack, agent, live } = triggerStack();
    const queue = new Queue(stack, 'Requests');
    agent.runOnQueue(queue, { session: 'inbox', maxSteps: 5 });
    const template = Template.fromStack(stack);
    const queueId = logicalId(queue);
    const [pipe] = Object.values(template.findResources('AWS::Pipes::Pipe'));
    expect(pipe?.Properties).toMatchObject({
      Source: { 'Fn::GetAtt': [queueId, 'Arn'] },
      SourceParameters: { SqsQueueParameters: { BatchSize: 1 } },
      Target: { Ref: live },
      TargetParameters: { StepFunctionStateMachineParameters: { InvocationType: 'FIRE_AND_FORGET' } },
    });
    const record = { messageId: '059f36b4-87a3-44ab-83d2-661975830a7d', body: 'Reply to "Ada":\nthanks!' };
    const input = fillInputTemplate(pipe?.Properties.TargetParameters.InputTemplate, (path) =>
      valueAt(record, path),
    );
    expect(input).toEqual({
      message: record.body,
      requestId: record.messageId,
      session: 'inbox',
      maxSteps: 5,
    });
    expect(turnRequestSchema.safeParse(input).success).toBe(true);
  });

  it("fills a queue trigger's message template from a JSON body's fields", () => {
    const { stack, agent } = triggerStack();
    agent.runOnQueue(new Queue(stack, 'Tickets'), {
      message: 'Triage ticket <$.body.ticketId> from <$.body.team>.',
    });
    const [pipe] = Object.values(Template.fromStack(stack).findResources('AWS::Pipes::Pipe'));
    const record = { messageId: 'm-1', body: { ticketId: 'T-7', team: 'billing' } };
    expect(
      fillInputTemplate(pipe?.Properties.TargetParameters.InputTemplate, (path) => valueAt(record, path)),
    ).toEqual({
      message: 'Triage ticket T-7 from billing.',
      requestId: 'm-1',
    });
  });

  it('gives the pipe a role that only pipes of this account may take, which may only consume its queue and start this state machine', () => {
    const { stack, agent, machine } = triggerStack();
    const queue = new Queue(stack, 'Requests');
    const { role, pipe } = agent.runOnQueue(queue);
    const template = Template.fromStack(stack);
    const roleId = logicalId(role);
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
        Resource: { 'Fn::GetAtt': [logicalId(queue), 'Arn'] },
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

  it('refuses a queue message template that selects no field, at synthesis', () => {
    const { stack, agent } = triggerStack();
    expect(() => agent.runOnQueue(new Queue(stack, 'Requests'), { message: '<$.>' })).toThrow(
      /runOnQueue message has the placeholder <\$\.>/,
    );
  });
});
