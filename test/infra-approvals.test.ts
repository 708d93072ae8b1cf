import { AgentStep, type AgentStepProps } from '@agentstep/infra';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';

type State = Record<string, unknown> & { ItemProcessor?: { States: Record<string, State> } };

function synth(props: AgentStepProps = {}, build?: (stack: Stack) => Partial<AgentStepProps>) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Approvals');
  const agent = new AgentStep(stack, 'Agent', { ...props, ...build?.(stack) });
  const template = Template.fromStack(stack);
  return { agent, stack, template };
}

/** The RunTools map's item states, from the synthesized definition (tokens left as they are). */
function itemStates(template: Template): Record<string, State> {
  const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
  const parts = machine?.Properties.DefinitionString['Fn::Join'][1] as unknown[];
  // Tokens (function ARNs) sit inside JSON strings of the joined text.
  const text = parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
  const definition = JSON.parse(text) as { States: Record<string, State> };
  return definition.States.RunTools?.ItemProcessor?.States ?? {};
}

describe('AgentStep approvals (synthesized)', () => {
  it('waits on a task token for calls that need approval, for the approval timeout, at no cost', () => {
    const { template } = synth({ approvals: ['echo'], approvalTimeout: Duration.hours(2) });
    const states = itemStates(template);
    // Calls start at InvokeTool (one transition each); one whose approval is not settled waits.
    expect(states.InvokeTool?.Catch).toEqual([
      { ErrorEquals: ['ApprovalRequired'], ResultPath: '$.error', Next: 'AwaitApproval' },
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RecordToolFailure' },
    ]);
    const wait = states.AwaitApproval as Record<string, unknown>;
    expect(String(wait.Resource)).toMatch(/:states:::lambda:invoke\.waitForTaskToken$/);
    expect(wait).toMatchObject({
      TimeoutSeconds: 2 * 60 * 60,
      ResultPath: null,
      Next: 'InvokeTool',
      Parameters: { Payload: { 'token.$': '$$.Task.Token', 'approval.$': '$.approval' } },
      Catch: [
        { ErrorEquals: ['ApprovalSettled'], Next: 'InvokeTool' },
        { ErrorEquals: ['States.Timeout'], Next: 'ExpireApproval' },
        { ErrorEquals: ['States.ALL'], Next: 'RecordToolFailure' },
      ],
    });
    expect(states.ExpireApproval).toMatchObject({ Type: 'Task', ResultPath: null, Next: 'InvokeTool' });
  });

  it('tells the model functions and the API which tools wait, and for how long', () => {
    const { agent, stack, template } = synth(
      { approvals: ['http_fetch'], approvalTimeout: Duration.minutes(5) },
      (scope) => ({
        lambdaTools: [
          {
            name: 'deploy',
            description: 'Deploys.',
            parameters: { type: 'object', properties: {} },
            function: new LambdaFunction(scope, 'Deploy', {
              runtime: Runtime.NODEJS_22_X,
              handler: 'index.handler',
              code: Code.fromInline('exports.handler = async () => 1;'),
            }),
            approval: true,
          },
        ],
      }),
    );
    const variables = (fn: { node: { defaultChild?: unknown } }) => {
      const id = stack.getLogicalId(fn.node.defaultChild as never);
      return template.toJSON().Resources[id].Properties.Environment.Variables;
    };
    for (const fn of [
      agent.functions['model-step'],
      agent.functions['advance-turn'],
      agent.apiFunctions.api,
    ]) {
      expect(variables(fn as never)).toMatchObject({
        AGENTSTEP_APPROVALS: 'http_fetch',
        AGENTSTEP_APPROVAL_TIMEOUT_SECONDS: '300',
      });
    }
    expect(JSON.stringify(variables(agent.functions['model-step']))).toContain('\\"approval\\":true');
  });

  it('lets only the API function send the loop’s task results', () => {
    const { agent, stack, template } = synth({ approvals: ['*'] });
    const api = stack.getLogicalId(agent.apiFunctions.api?.role?.node.defaultChild as never);
    const senders = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter(({ Properties }) =>
        JSON.stringify(Properties.PolicyDocument).includes('states:SendTaskSuccess'),
      )
      .map(({ Properties }) => JSON.stringify(Properties.Roles));
    expect(senders).toEqual([JSON.stringify([{ Ref: api }])]);
  });

  it('refuses an approval timeout under a second and a name that is no tool, at synthesis', () => {
    expect(() => synth({ approvalTimeout: Duration.seconds(0) })).toThrow(/approvalTimeout/);
    expect(() => synth({ approvals: ['not a tool!'] })).toThrow(/approvals names "not a tool!"/);
  });
});
