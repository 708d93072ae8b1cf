import { describe, expect, it } from 'vitest';
import { allows, deployedValue, iamRequestsOf } from '../support/iam-coverage.js';

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/Events';

describe('AWS calls as IAM authorizes them', () => {
  it('takes a transaction item by item, each as its own action on its table', () => {
    const call = {
      accessKeyId: 'fn',
      target: 'DynamoDB_20120810.TransactWriteItems',
      input: {
        TransactItems: [{ Put: { TableName: 'Events' } }, { ConditionCheck: { TableName: 'Events' } }],
      },
    };
    expect(iamRequestsOf(call)).toEqual([
      { action: 'dynamodb:PutItem', resource: TABLE },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE },
    ]);
  });

  it("allows what a role's statement names, and denies what none does", async () => {
    const statements = [{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: TABLE }];
    expect(await allows('Role', statements, { action: 'dynamodb:Query', resource: TABLE })).toBe(true);
    expect(await allows('Role', statements, { action: 'dynamodb:DeleteItem', resource: TABLE })).toBe(false);
    expect(await allows('Role', [], { action: 'dynamodb:Query', resource: TABLE })).toBe(false);
  });

  it('authorizes a task token’s answer on the state machine that issued it, as Step Functions does', async () => {
    const machine = 'arn:aws:states:us-east-1:123456789012:stateMachine:Loop';
    const statements = [{ Effect: 'Allow', Action: 'states:SendTaskSuccess', Resource: machine }];
    expect(await allows('Role', statements, { action: 'states:SendTaskSuccess', resource: machine })).toBe(
      true,
    );
    const other = 'arn:aws:states:us-east-1:123456789012:stateMachine:Other';
    expect(await allows('Role', statements, { action: 'states:SendTaskSuccess', resource: other })).toBe(
      false,
    );
  });

  it('resolves a template’s tokens to what they are deployed as in the test account', () => {
    const resources = {
      Events: { Type: 'AWS::DynamoDB::GlobalTable' },
      Loop: { Type: 'AWS::StepFunctions::StateMachine' },
    };
    expect(deployedValue({ 'Fn::GetAtt': ['Events', 'Arn'] }, resources)).toBe(TABLE);
    const execution = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':states:us-east-1:123456789012:execution:',
          { 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: 'Loop' }] }] },
          ':*',
        ],
      ],
    };
    expect(deployedValue(execution, resources)).toBe(
      'arn:aws:states:us-east-1:123456789012:execution:Loop:*',
    );
  });
});
