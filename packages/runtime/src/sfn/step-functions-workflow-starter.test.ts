import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { StepFunctionsWorkflowStarter } from './step-functions-workflow-starter.js';

const sfn = mockClient(SFNClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => sfn.restore());
afterEach(() => sfn.reset());

const starter = () =>
  new StepFunctionsWorkflowStarter({ stateMachineArn: 'arn:workflows', client: new SFNClient({}) });

describe('StepFunctionsWorkflowStarter', () => {
  it('starts an execution named after the run (its tenant tag’s dot as _), the run as its input', async () => {
    const arn = 'arn:aws:states:us-east-1:123456789012:execution:Workflows:0123456789abcdef_wf-1';
    sfn.on(StartExecutionCommand).resolves({ executionArn: arn, startDate: new Date() });
    expect(await starter().start('0123456789abcdef.wf-1')).toBe(arn);
    expect(sfn.commandCalls(StartExecutionCommand)[0]?.args[0].input).toEqual({
      stateMachineArn: 'arn:workflows',
      name: '0123456789abcdef_wf-1',
      input: '{"run":"0123456789abcdef.wf-1"}',
    });
  });

  it('names a run too long for an execution name by its digest, the same each time', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:x', startDate: new Date() });
    const run = `0123456789abcdef.${'r'.repeat(100)}`;
    await starter().start(run);
    await starter().start(run);
    const names = sfn.commandCalls(StartExecutionCommand).map(({ args }) => args[0].input.name);
    expect(names[0]).toMatch(/^run-[0-9a-f]{40}$/);
    expect(names[1]).toBe(names[0]);
  });

  it('takes a run whose execution already ran as started', async () => {
    sfn.on(StartExecutionCommand).rejects(new ExecutionAlreadyExists({ message: 'exists', $metadata: {} }));
    expect(await starter().start('wf-1')).toBe('wf-1');
  });
});
