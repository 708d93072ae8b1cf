import {
  DescribeExecutionCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StepFunctionsStarter } from './step-functions-starter.js';

const sfn = mockClient(SFNClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => sfn.restore());
afterEach(() => sfn.reset());

describe('StepFunctionsStarter', () => {
  it('starts an execution named after the turn, with the turn input as JSON', async () => {
    const arn = 'arn:aws:states:us-east-1:123456789012:execution:Loop:t-1';
    sfn.on(StartExecutionCommand).resolves({ executionArn: arn, startDate: new Date() });
    const starter = new StepFunctionsStarter({ stateMachineArn: 'arn:loop', client: new SFNClient({}) });
    expect(await starter.start({ session: 's', turn: 't-1', maxSteps: 5 })).toBe(arn);
    expect(sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input).toEqual({
      stateMachineArn: 'arn:loop',
      name: 't-1',
      input: '{"session":"s","turn":"t-1","maxSteps":5}',
    });
  });

  it('reads every running execution back for its turn, across pages and from any alias', async () => {
    const execution = (name: string) => ({
      name,
      executionArn: `arn:aws:states:us-east-1:123456789012:execution:Loop:${name}`,
      stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:Loop',
      status: 'RUNNING' as const,
      startDate: new Date(),
    });
    sfn
      .on(ListExecutionsCommand)
      .resolvesOnce({ executions: [execution('t-1')], nextToken: 'page-2' })
      .resolvesOnce({ executions: [execution('t-2-25')] });
    sfn.on(DescribeExecutionCommand).callsFake(({ executionArn }: { executionArn: string }) => {
      const first = executionArn.endsWith(':t-1');
      const input = first ? { session: 'abc.s-1', turn: 't-1' } : { session: 's-2', turn: 't-2', step: 25 };
      return { executionArn, input: JSON.stringify(input) };
    });
    const starter = new StepFunctionsStarter({
      stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:Loop:live',
      client: new SFNClient({}),
    });
    expect(await starter.runningTurns()).toEqual([
      { session: 'abc.s-1', turn: 't-1' },
      { session: 's-2', turn: 't-2' },
    ]);
    const listed = sfn.commandCalls(ListExecutionsCommand).map((call) => call.args[0].input);
    expect(listed).toMatchObject([
      { stateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:Loop', statusFilter: 'RUNNING' },
      { nextToken: 'page-2' },
    ]);
  });
});
