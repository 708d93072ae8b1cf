import { describe, expect, it } from 'vitest';
import { localFunctionArn, localStateMachineArn, resolveTokens } from './resolve-tokens.js';

/** A template's pinned resources: a function's version, the loop's version and its `live` alias. */
const RESOURCES = {
  StepVersion: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: 'Step' } } },
  LoopVersion: {
    Type: 'AWS::StepFunctions::StateMachineVersion',
    Properties: { StateMachineArn: { Ref: 'Loop' } },
  },
  LoopLive: {
    Type: 'AWS::StepFunctions::StateMachineAlias',
    Properties: { Name: 'live', DeploymentPreference: { StateMachineVersionArn: { Ref: 'LoopVersion' } } },
  },
};

describe('resolveTokens (decision 0042: locally there are no versions)', () => {
  it("resolves a function's version to the function's $LATEST, which the engine maps to its step", () => {
    expect(resolveTokens({ Ref: 'StepVersion' }, RESOURCES)).toBe(`${localFunctionArn('Step')}:$LATEST`);
  });

  it('resolves a state machine alias to the machine qualified by its name, by Ref or by its Arn', () => {
    const live = `${localStateMachineArn('Loop')}:live`;
    expect(resolveTokens({ Ref: 'LoopLive' }, RESOURCES)).toBe(live);
    expect(resolveTokens({ 'Fn::GetAtt': ['LoopLive', 'Arn'] }, RESOURCES)).toBe(live);
  });

  it('resolves other references as before: a resource by its logical id, a function by its local ARN', () => {
    expect(resolveTokens({ Ref: 'Loop' }, RESOURCES)).toBe('Loop');
    expect(resolveTokens({ 'Fn::GetAtt': ['Step', 'Arn'] })).toBe(localFunctionArn('Step'));
  });
});
