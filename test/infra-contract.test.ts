import { AgentStep, type AgentStepProps } from '@agentstep/infra';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { describe, expect, it } from 'vitest';

type States = Record<string, Record<string, unknown>>;

function synth(build: (stack: Stack) => AgentStepProps = () => ({})) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Contract');
  const agent = new AgentStep(stack, 'Agent', build(stack));
  return { agent, stack, template: Template.fromStack(stack) };
}

/**
 * The loop's states (or the workflow machine's: the one with AdvanceWorkflow), from the synthesized
 * definition (tokens stand inside JSON strings).
 */
function states(template: Template, machine: 'loop' | 'workflows' = 'loop'): States {
  const all = Object.values(template.findResources('AWS::StepFunctions::StateMachine')).map((resource) => {
    const parts = resource.Properties.DefinitionString['Fn::Join'][1] as unknown[];
    const text = parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
    return (JSON.parse(text) as { States: States }).States;
  });
  const found = all.find((each) => 'AdvanceWorkflow' in each === (machine === 'workflows'));
  if (found === undefined) throw new Error(`no ${machine} state machine in the template`);
  return found;
}

/** Every statement of the state machine role's policies. */
function machineStatements(template: Template): Array<{ Action: string | string[]; Resource: unknown }> {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes('StateMachineRole'))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement);
}

describe('the execution contract on the synthesized state machine', () => {
  it('hands StartTurn the execution input and name; a bad request fails the execution with its own error', () => {
    const loop = states(synth().template);
    expect(loop.StartTurn).toMatchObject({
      Parameters: { 'input.$': '$', 'execution.$': '$$.Execution.Name' },
    });
    expect((loop.StartTurn?.Catch as unknown[] | undefined)?.[0]).toEqual({
      ErrorEquals: ['InvalidTurnRequest', 'SessionBusy'],
      ResultPath: '$.error',
      Next: 'TurnNotStarted',
    });
    expect(loop.TurnNotStarted).toEqual({
      Type: 'Fail',
      ErrorPath: '$.error.Error',
      CausePath: '$.error.Cause',
    });
  });

  it('continues a long turn in a fresh execution it waits for (.sync:2), returning that one’s output', () => {
    const loop = states(synth().template);
    expect(String(loop.ContinueAsNew?.Resource)).toMatch(/:states:::states:startExecution\.sync:2$/);
    expect(loop.ContinueAsNew).toMatchObject({ OutputPath: '$.Output', End: true });
  });

  it('ends every turn by describing it and announcing it on the default bus: completed or failed', () => {
    const { template } = synth();
    const loop = states(template);
    expect(loop.TurnEnded).toMatchObject({
      Type: 'Choice',
      Choices: [
        { Variable: '$.pending', IsPresent: true, Next: 'AwaitTurnEnd' },
        { Variable: '$.status', StringEquals: 'failed', Next: 'PublishTurnFailed' },
      ],
      Default: 'PublishTurnCompleted',
    });
    for (const [name, detailType] of [
      ['PublishTurnCompleted', 'Agent Turn Completed'],
      ['PublishTurnFailed', 'Agent Turn Failed'],
    ] as const) {
      expect(String(loop[name]?.Resource)).toMatch(/:states:::events:putEvents$/);
      expect(loop[name]).toMatchObject({
        Parameters: { Entries: [{ Source: 'agentstep', DetailType: detailType, 'Detail.$': '$' }] },
        ResultPath: null,
        Next: 'Done',
      });
    }
    const put = machineStatements(template).find((statement) => statement.Action === 'events:PutEvents');
    expect(JSON.stringify(put?.Resource)).toContain(':event-bus/default');
  });

  it('ends every workflow run by announcing it: failed, or completed (done and aborted)', () => {
    const { template } = synth();
    const workflows = states(template, 'workflows');
    expect(workflows.WorkflowRoute).toMatchObject({
      Choices: expect.arrayContaining([
        { Variable: '$.next', StringEquals: 'failed', Next: 'PublishRunFailed' },
      ]),
      Default: 'PublishRunCompleted',
    });
    const run = { 'run.$': '$.run', 'status.$': '$.next', 'message.$': '$.message' };
    for (const [name, detailType, detail, next] of [
      ['PublishRunCompleted', 'Workflow Run Completed', run, 'WorkflowDone'],
      ['PublishRunFailed', 'Workflow Run Failed', { ...run, 'error.$': '$.error' }, 'WorkflowFailed'],
    ] as const) {
      expect(String(workflows[name]?.Resource)).toMatch(/:states:::events:putEvents$/);
      expect(workflows[name]).toMatchObject({
        Parameters: { Entries: [{ Source: 'agentstep', DetailType: detailType, Detail: detail }] },
        ResultPath: null,
        Next: next,
      });
    }
  });

  it('announces on the bus it is given, and both state machines may put events on that bus only', () => {
    const { template } = synth((stack) => ({ eventBus: EventBus.fromEventBusName(stack, 'Bus', 'jobs') }));
    const put = machineStatements(template).filter((statement) => statement.Action === 'events:PutEvents');
    expect(put).toHaveLength(2); // the loop's and the workflow machine's
    for (const { Resource } of put) {
      expect(JSON.stringify(Resource)).toContain(':event-bus/jobs');
      expect(JSON.stringify(Resource)).not.toContain('event-bus/default');
    }
  });

  it('lets CloseStoppedTurn announce the turns it closes on the same bus, and nothing else announce', () => {
    const { agent, stack, template } = synth((scope) => ({
      eventBus: EventBus.fromEventBusName(scope, 'Bus', 'jobs'),
    }));
    const closer = agent.functions['close-stopped-turn'];
    const id = stack.getLogicalId(closer.node.defaultChild as never);
    expect(template.toJSON().Resources[id].Properties.Environment.Variables).toMatchObject({
      AGENTSTEP_EVENT_BUS: 'jobs',
    });
    const role = stack.getLogicalId(closer.role?.node.defaultChild as never);
    const putters = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter(({ Properties }) => JSON.stringify(Properties.PolicyDocument).includes('events:PutEvents'))
      .map(({ Properties }) => JSON.stringify(Properties.Roles));
    expect(putters).toHaveLength(3); // the two state machines' roles and CloseStoppedTurn's
    expect(putters.some((roles) => roles.includes(role))).toBe(true);
  });

  it('lets the loop follow and stop only its own executions, and DescribeTurn only read the table', () => {
    const { agent, stack, template } = synth();
    const follow = machineStatements(template).find((statement) =>
      JSON.stringify(statement.Action).includes('states:DescribeExecution'),
    );
    expect(follow?.Action).toEqual(['states:DescribeExecution', 'states:StopExecution']);
    expect(JSON.stringify(follow?.Resource)).toContain(':execution:');
    const role = stack.getLogicalId(agent.functions['describe-turn'].role?.node.defaultChild as never);
    const actions = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes(role))
      .flatMap(({ Properties }) => Properties.PolicyDocument.Statement)
      .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
      .filter((action: string) => action.startsWith('dynamodb:'))
      .sort();
    expect(actions).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
  });
});
