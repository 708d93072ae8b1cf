import { Duration } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { describe, expect, it } from 'vitest';
import { machineStates } from './testing/machine-states.js';
import { actionsOf, roleStatements, type Statement } from './testing/role-statements.js';
import { defaultAgent, environmentOf, logicalId, synthAgent } from './testing/synth-agent.js';

/** Every statement of the state machines' role policies. */
function machineStatements(template: Template): Statement[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes('StateMachineRole'))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement);
}

describe('the execution contract on the synthesized state machine', () => {
  it('runs a Standard workflow in JSONPath (the local engine does not run JSONata)', () => {
    const [machine] = Object.values(
      defaultAgent().template.findResources('AWS::StepFunctions::StateMachine'),
    );
    expect(machine?.Properties.StateMachineType).toBe('STANDARD');
    expect(JSON.stringify(machine?.Properties.DefinitionString)).not.toContain('JSONata');
  });

  it('hands StartTurn the execution input and name; a bad request fails the execution with its own error', () => {
    const loop = machineStates(defaultAgent().template);
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
    const loop = machineStates(defaultAgent().template);
    expect(String(loop.ContinueAsNew?.Resource)).toMatch(/:states:::states:startExecution\.sync:2$/);
    expect(loop.ContinueAsNew).toMatchObject({ OutputPath: '$.Output', End: true });
  });

  it('ends every turn by its result and announces it on the default bus, the last state: completed or failed', () => {
    const { template } = defaultAgent();
    const loop = machineStates(template);
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
        End: true,
      });
    }
    // The states that end a turn answer with its result: straight to TurnEnded, no DescribeTurn.
    for (const name of ['FinishTurn', 'FailTurn', 'ReleaseTurn'])
      expect(loop[name]).toMatchObject({ Next: 'TurnEnded' });
    for (const name of ['FinishTurn', 'FailTurn', 'ReleaseTurn'])
      expect(loop[name]).not.toHaveProperty('ResultPath');
    expect(loop.Done).toBeUndefined();
    const put = machineStatements(template).find((statement) => statement.Action === 'events:PutEvents');
    expect(JSON.stringify(put?.Resource)).toContain(':event-bus/default');
  });

  it('lets the loop follow and stop only its own executions, and DescribeTurn only read the table', () => {
    const { agent, template } = defaultAgent();
    const follow = machineStatements(template).find((statement) =>
      JSON.stringify(statement.Action).includes('states:DescribeExecution'),
    );
    expect(follow?.Action).toEqual(['states:DescribeExecution', 'states:StopExecution']);
    expect(JSON.stringify(follow?.Resource)).toContain(':execution:');
    expect(actionsOf(roleStatements(template, agent.functions['describe-turn']), 'dynamodb:')).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
  });
});

describe('the state machines on an event bus of their own (synthesized)', () => {
  const { agent, template } = synthAgent((stack) => ({
    eventBus: EventBus.fromEventBusName(stack, 'Bus', 'jobs'),
  }));

  it('announces on the bus it is given, and both state machines may put events on that bus only', () => {
    const put = machineStatements(template).filter((statement) => statement.Action === 'events:PutEvents');
    expect(put).toHaveLength(2); // the loop's and the workflow machine's
    for (const { Resource } of put) {
      expect(JSON.stringify(Resource)).toContain(':event-bus/jobs');
      expect(JSON.stringify(Resource)).not.toContain('event-bus/default');
    }
  });

  it('lets CloseStoppedTurn announce the turns it closes on the same bus, and nothing else announce', () => {
    const closer = agent.functions['close-stopped-turn'];
    expect(environmentOf(template, closer)).toMatchObject({ AGENTSTEP_EVENT_BUS: 'jobs' });
    const role = logicalId(closer.role);
    const putters = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter(({ Properties }) => JSON.stringify(Properties.PolicyDocument).includes('events:PutEvents'))
      .map(({ Properties }) => JSON.stringify(Properties.Roles));
    expect(putters).toHaveLength(3); // the two state machines' roles and CloseStoppedTurn's
    expect(putters.some((roles) => roles.includes(role))).toBe(true);
  });
});

describe('the loop’s approvals (synthesized)', () => {
  it('waits on a task token for calls that need approval, for the approval timeout, at no cost', () => {
    const { template } = synthAgent({ approvals: ['echo'], approvalTimeout: Duration.hours(2) });
    const states = machineStates(template).RunTools?.ItemProcessor?.States ?? {};
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
});
