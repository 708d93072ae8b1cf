import { ENV_NAMES } from '@agentstep/protocol';
import { Template } from 'aws-cdk-lib/assertions';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { actionsOf, LOOP_TABLE_ACTIONS, roleStatements } from './testing/role-statements.js';
import { environmentOf, logicalId, newAgent } from './testing/synth-agent.js';

describe('the operator function (synthesized)', () => {
  const { stack, agent } = newAgent({ api: false });
  const operatorRole = new Role(stack, 'Operator', { assumedBy: new AccountRootPrincipal() });
  agent.grantOperate(operatorRole);
  const template = Template.fromStack(stack);
  const statements = roleStatements(template, agent.operator);

  it('has minutes to cancel a suspended tenant’s turns', () => {
    expect(template.toJSON().Resources[logicalId(agent.operator)].Properties.Timeout).toBe(300);
  });

  it('runs on the table and the loop, the table and loop it names in its environment', () => {
    expect(environmentOf(template, agent.operator)).toMatchObject({
      [ENV_NAMES.table]: { Ref: expect.stringContaining('EventLog') },
      [ENV_NAMES.stateMachine]: { Ref: logicalId(agent.stateMachine) },
    });
  });

  it("may set tenants' controls and cancel turns, list, read and stop executions, and nothing else", () => {
    expect(actionsOf(statements, 'dynamodb:')).toEqual(LOOP_TABLE_ACTIONS);
    expect(actionsOf(statements, 'states:')).toEqual([
      'states:DescribeExecution',
      'states:ListExecutions',
      'states:StopExecution',
    ]);
    expect(actionsOf(statements, 'lambda:')).toEqual([]);
  });

  it('is reached only by the principals given grantOperate, with lambda:InvokeFunction', () => {
    const invoking = roleStatements(template, operatorRole);
    expect(actionsOf(invoking, '')).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(invoking)).toContain(logicalId(agent.operator));
    const invokers = Object.values(template.findResources('AWS::IAM::Policy')).filter(({ Properties }) =>
      JSON.stringify(Properties.PolicyDocument).includes(logicalId(agent.operator)),
    );
    expect(invokers).toHaveLength(1);
  });
});
