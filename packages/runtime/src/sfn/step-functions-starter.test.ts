import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
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
});
