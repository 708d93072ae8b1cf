import { DynamoEventLog, ensureEventLogTable } from '@agentstep/runtime';
import { describeEventLogContract } from '@agentstep/runtime/testing';
import { beforeAll, describe } from 'vitest';
import { dynamoEndpoint, localDocumentClient } from './dynamo-client.js';

const tableName = 'agentstep-events-contract';

describe.skipIf(dynamoEndpoint === '')('DynamoEventLog on DynamoDB Local', () => {
  const client = localDocumentClient();
  beforeAll(() => ensureEventLogTable(client, tableName));
  describeEventLogContract('DynamoEventLog', () => new DynamoEventLog({ tableName, client }));
});
