import { Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import type { AgentDeployment } from './deployment-preference.js';
import { machineStates, type State, taskStates } from './testing/machine-states.js';
import { roleStatements } from './testing/role-statements.js';
import {
  defaultAgent,
  environmentOf,
  liveId,
  logicalId,
  synthAgent,
  triggerStack,
} from './testing/synth-agent.js';

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The Lambda a task calls: its `Resource` when that names a function, else its `FunctionName`. */
function calledFunction(task: State): unknown {
  const parameters = (task.Parameters ?? {}) as Record<string, unknown>;
  return typeof task.Resource === 'string' ? parameters.FunctionName : task.Resource;
}

/** Whether `reference` is a `Ref` to a Lambda version of the template (its ARN is qualified). */
function isVersion(resources: Resources, reference: unknown): boolean {
  const id = (reference as { Ref?: string } | undefined)?.Ref;
  return id !== undefined && resources[id]?.Type === 'AWS::Lambda::Version';
}

/** The alias's DeploymentPreference, the version it shifts to, and the failure alarm's logical id. */
function preferenceOf(deployment?: AgentDeployment | ((stack: Stack) => AgentDeployment)) {
  const { agent, template } = synthAgent((stack) => ({
    api: false,
    ...(deployment ? { deployment: typeof deployment === 'function' ? deployment(stack) : deployment } : {}),
  }));
  const [alias] = Object.values(template.findResources('AWS::StepFunctions::StateMachineAlias'));
  return {
    preference: alias?.Properties.DeploymentPreference,
    version: Stack.of(agent).getLogicalId(agent.live.version),
    failureAlarm: logicalId(agent.failureAlarm),
  };
}

describe('pinned and gradual deploys (decision 0042, synthesized)', () => {
  it('calls a Lambda version from every Task state of the loop and the workflows, and calls route to one', () => {
    const { agent, template } = defaultAgent();
    const resources = template.toJSON().Resources as Resources;
    const called = [
      ...Object.values(taskStates(machineStates(template))),
      ...Object.values(taskStates(machineStates(template, 'workflows'))),
    ]
      .map(calledFunction)
      .filter((reference) => reference !== undefined);
    // Ten loop tasks and two workflow tasks call a function the definition names.
    expect(called).toHaveLength(12);
    for (const reference of called) expect(isVersion(resources, reference)).toBe(true);
    // InvokeTool calls the function each call names: the tools function's version.
    const target = environmentOf(template, agent.functions['model-step']).AGENTSTEP_TOOLS_FUNCTION;
    expect(isVersion(resources, target)).toBe(true);
  });

  it.each(['loop', 'workflows'] as const)(
    'lets the %s invoke versions of its functions, which executions of earlier revisions still call, never $LATEST',
    (machine) => {
      const { agent, template } = defaultAgent();
      const resources = template.toJSON().Resources as Resources;
      const role = (machine === 'loop' ? agent.stateMachine : agent.workflowStateMachine).role;
      const invoked = roleStatements(template, role)
        .filter((statement) => [statement.Action].flat().includes('lambda:InvokeFunction'))
        .flatMap((statement) => [statement.Resource].flat());
      expect(invoked.length).toBeGreaterThan(0);
      const anyVersion = (resource: unknown) => {
        const parts = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1];
        return parts?.length === 2 && parts[1] === ':*';
      };
      for (const resource of invoked)
        expect(isVersion(resources, resource) || anyVersion(resource)).toBe(true);
      expect(invoked.filter(anyVersion).length).toBeGreaterThan(0);
    },
  );

  it('publishes a state machine version of every revision and keeps the earlier ones', () => {
    const { agent, template } = defaultAgent();
    const machine = logicalId(agent.stateMachine);
    template.hasResource('AWS::StepFunctions::StateMachineVersion', {
      Properties: {
        StateMachineArn: { Ref: machine },
        StateMachineRevisionId: { 'Fn::GetAtt': [machine, 'StateMachineRevisionId'] },
      },
      UpdateReplacePolicy: 'Retain',
      DeletionPolicy: 'Retain',
    });
  });

  it.each<[string, AgentDeployment | undefined, Record<string, unknown>]>([
    ['all at once by default', undefined, { Type: 'ALL_AT_ONCE' }],
    [
      'a canary of 10% for 5 minutes by default',
      { strategy: 'canary' },
      { Type: 'CANARY', Percentage: 10, Interval: 5 },
    ],
    [
      'linear steps as given',
      { strategy: 'linear', percent: 25, intervalMinutes: 30 },
      { Type: 'LINEAR', Percentage: 25, Interval: 30 },
    ],
  ])('shifts the live alias %s, rolled back by the failure alarm', (_, deployment, expected) => {
    const { preference, version, failureAlarm } = preferenceOf(deployment);
    expect(preference).toEqual({
      ...expected,
      StateMachineVersionArn: { Ref: version },
      Alarms: [{ Ref: failureAlarm }],
    });
  });

  it('names the live alias `live`', () => {
    defaultAgent().template.hasResourceProperties('AWS::StepFunctions::StateMachineAlias', { Name: 'live' });
  });

  it('watches the alarms given instead, or none', () => {
    const own = preferenceOf((stack) => ({
      strategy: 'canary',
      alarms: [
        new Alarm(stack, 'Errors', {
          metric: new Metric({ namespace: 'Shop', metricName: 'Errors' }),
          threshold: 1,
          evaluationPeriods: 1,
        }),
      ],
    }));
    expect(own.preference.Alarms).toEqual([{ Ref: expect.stringMatching(/^Errors/) }]);
    expect(preferenceOf({ strategy: 'linear', alarms: [] }).preference).not.toHaveProperty('Alarms');
  });

  it.each<[string, AgentDeployment, RegExp]>([
    [
      'a percent of 0',
      { strategy: 'canary', percent: 0 },
      /deployment.percent must be a whole number from 1 to 99, received 0/,
    ],
    ['a percent of 100', { strategy: 'linear', percent: 100 }, /deployment.percent must be .* received 100/],
    [
      'a fractional percent',
      { strategy: 'canary', percent: 2.5 },
      /deployment.percent must be .* received 2.5/,
    ],
    [
      'an interval of 0',
      { strategy: 'canary', intervalMinutes: 0 },
      /deployment.intervalMinutes must be a whole number from 1 to 2100/,
    ],
    [
      'an interval past 2100 minutes',
      { strategy: 'linear', intervalMinutes: 2101 },
      /intervalMinutes .* received 2101/,
    ],
    [
      'a percent all at once',
      { strategy: 'all-at-once', percent: 10 },
      /deployment.percent applies to the 'canary' and 'linear' strategies only/,
    ],
    [
      'an unknown strategy',
      { strategy: 'blue-green' as never },
      /deployment.strategy must be 'all-at-once', 'canary' or 'linear', received "blue-green"/,
    ],
  ])('refuses %s at synthesis', (_, deployment, message) => {
    expect(() => synthAgent({ api: false, deployment })).toThrow(message);
  });

  it('starts every execution through the live alias: the API, StartQueuedTurn, rules, schedules, pipes, workflows and sub-agents', () => {
    const { agent, template } = defaultAgent();
    const live = { Ref: liveId(agent) };
    expect(environmentOf(template, agent.apiFunctions.api).AGENTSTEP_STATE_MACHINE).toEqual(live);
    expect(environmentOf(template, agent.functions['start-queued-turn']).AGENTSTEP_STATE_MACHINE).toEqual(
      live,
    );
    expect(taskStates(machineStates(template, 'workflows')).RunGoal?.Parameters).toMatchObject({
      StateMachineArn: live,
    });
    const loop = machineStates(template);
    expect(loop.RunTools?.ItemSelector).toHaveProperty(
      ['stateMachine.$'],
      "States.Format('arn:TOKEN:states:TOKEN:TOKEN:stateMachine:{}:live', $$.StateMachine.Name)",
    );
    const triggers = triggerStack();
    triggers.agent.runOnSchedule(Schedule.rate(Duration.hours(1)), { message: 'Check the inbox.' });
    triggers.agent.runOnEvent(new Rule(triggers.stack, 'Orders', { eventPattern: { source: ['shop'] } }), {
      message: 'New order.',
    });
    triggers.agent.runOnQueue(new Queue(triggers.stack, 'Requests'));
    const triggered = Template.fromStack(triggers.stack);
    const targets = Object.values(triggered.findResources('AWS::Events::Rule'))
      .flatMap(({ Properties }) => Properties.Targets)
      // The turn-end and stopped-execution rules target functions (`Fn::GetAtt`); the triggers, the loop.
      .filter((target) => 'Ref' in target.Arn);
    expect(targets.map((target) => target.Arn)).toEqual([{ Ref: triggers.live }, { Ref: triggers.live }]);
    triggered.hasResourceProperties('AWS::Pipes::Pipe', { Target: { Ref: triggers.live } });
  });

  it('continues a turn on the version its execution runs on, else on the latest revision', () => {
    const loop = machineStates(defaultAgent().template);
    expect(loop.FindVersion).toMatchObject({
      Resource: 'arn:TOKEN:states:::aws-sdk:sfn:describeExecution',
      Parameters: { 'ExecutionArn.$': '$$.Execution.Id', IncludedData: 'METADATA_ONLY' },
      ResultPath: '$.continuation',
    });
    expect(loop.OnLatestRevision).toMatchObject({
      Parameters: { 'StateMachineVersionArn.$': '$$.StateMachine.Id' },
      ResultPath: '$.continuation',
    });
    expect(loop.ContinueAsNew?.Parameters).toHaveProperty(
      ['StateMachineArn.$'],
      '$.continuation.StateMachineVersionArn',
    );
  });
});
