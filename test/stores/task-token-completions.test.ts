import { randomUUID } from 'node:crypto';
import { DynamoTaskTokenCompletions, LocalTaskTokens } from '@agentstep/local';
import { describeTaskTokenCompletionsContract } from '@agentstep/local/testing';
import { ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint, localDocumentClient } from '../support/dynamo-client.js';

const tableName = 'agentstep-task-tokens';

describe.skipIf(dynamoEndpoint === '')(
  'task token completions in the event-log table on DynamoDB Local',
  () => {
    const client = localDocumentClient();
    const completions = () => new DynamoTaskTokenCompletions({ tableName, client });
    beforeAll(() => ensureEventLogTable(client, tableName));

    describeTaskTokenCompletionsContract('DynamoTaskTokenCompletions', completions);

    it('completes a task waiting in one process from another process sharing the table', async () => {
      const engineProcess = new LocalTaskTokens(completions());
      const shellProcess = new LocalTaskTokens(completions());
      // Tokens of this test's own: the table outlives it.
      const [approvedToken, deniedToken] = [`local:${randomUUID()}`, `local:${randomUUID()}`];
      const approved = engineProcess.wait(approvedToken, 60_000);
      // Observed at once: the denial may land in the same poll as the approval, before it is awaited.
      const denied = expect(engineProcess.wait(deniedToken, 60_000)).rejects.toMatchObject({
        name: 'Denied',
        message: 'from another shell',
      });
      await shellProcess.sendTaskSuccess(approvedToken, { approvedBy: 'another shell' });
      await shellProcess.sendTaskFailure(deniedToken, 'Denied', 'from another shell');
      expect(await approved).toEqual({ approvedBy: 'another shell' });
      await denied;
      expect(engineProcess.waiting).toBe(0);
    });
  },
);
