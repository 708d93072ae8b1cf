import { Match } from 'aws-cdk-lib/assertions';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { describe, expect, it } from 'vitest';
import { actionsOf, LOOP_TABLE_ACTIONS, roleStatements } from './testing/role-statements.js';
import { defaultAgent, environmentOf, liveId, logicalId, synthAgent } from './testing/synth-agent.js';

/** The rules whose pattern matches AgentStep's turn ends, by logical id. */
function turnEndRules(template: ReturnType<typeof defaultAgent>['template']) {
  return template.findResources('AWS::Events::Rule', {
    Properties: { EventPattern: { source: ['agentstep'] } },
  });
}

describe('TurnEndedRule (synthesized)', () => {
  it('sends every turn end announced on the default bus to StartQueuedTurn, retried for 2 hours', () => {
    const { agent, template } = defaultAgent();
    const rules = Object.values(turnEndRules(template));
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toEqual({
      Description: expect.any(String),
      State: 'ENABLED',
      EventPattern: { source: ['agentstep'], 'detail-type': ['Agent Turn Completed', 'Agent Turn Failed'] },
      Targets: [
        {
          Id: 'Target0',
          Arn: { 'Fn::GetAtt': [logicalId(agent.functions['start-queued-turn']), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
        },
      ],
    });
    // No EventBusName: the default bus, where the loop announces without an `eventBus`.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalId(agent.functions['start-queued-turn']), 'Arn'] },
    });
  });

  it('listens on the bus the loop announces on when it is given one', () => {
    const { template } = synthAgent((stack) => ({
      eventBus: EventBus.fromEventBusName(stack, 'Bus', 'jobs'),
    }));
    const rules = Object.values(turnEndRules(template));
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.EventBusName).toBe('jobs');
  });

  it('gives StartQueuedTurn the table and the loop’s live alias in its environment', () => {
    const { agent, template } = defaultAgent();
    expect(environmentOf(template, agent.functions['start-queued-turn'])).toMatchObject({
      AGENTSTEP_TABLE: { Ref: logicalId(agent.table) },
      AGENTSTEP_STATE_MACHINE: { Ref: liveId(agent) },
      AGENTSTEP_STEP: 'start-queued-turn',
    });
  });

  it('lets StartQueuedTurn start executions of the loop only, and write the table with deletes of its queue: nothing more', () => {
    const { agent, template } = defaultAgent();
    const statements = roleStatements(template, agent.functions['start-queued-turn']);
    const states = statements.filter((statement) => JSON.stringify(statement.Action).includes('states:'));
    expect(states).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: { Ref: logicalId(agent.stateMachine) } },
    ]);
    expect(actionsOf(statements, 'dynamodb:')).toEqual([...LOOP_TABLE_ACTIONS, 'dynamodb:DeleteItem'].sort());
    const services = new Set(
      statements.flatMap((statement) => [statement.Action].flat()).map((action) => action.split(':')[0]),
    );
    expect(services).toEqual(new Set(['logs', 'xray', 'dynamodb', 'states']));
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: logicalId(agent.functions['start-queued-turn'].role) }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Resource: { 'Fn::GetAtt': [logicalId(agent.table), 'Arn'] } }),
        ]),
      }),
    });
  });
});
