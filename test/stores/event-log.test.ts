import { CachedEventLog } from '@agentstep/runtime';
import {
  DynamoEventLog,
  DynamoOutcomeStore,
  DynamoSessionDirectory,
  DynamoTenantControls,
  DynamoTenantSpend,
  DynamoTurnQueue,
  DynamoUsageLedger,
  ensureEventLogTable,
} from '@agentstep/runtime/dynamo';
import {
  describeEventLogContract,
  describeOutcomeStoreContract,
  describeSessionDirectoryContract,
  describeTenantControlsContract,
  describeTenantSpendContract,
  describeTurnQueueContract,
  describeUsageLedgerContract,
} from '@agentstep/runtime/testing';
import { beforeAll, describe } from 'vitest';
import { dynamoEndpoint, localDocumentClient } from '../support/dynamo-client.js';

const tableName = 'agentstep-events-contract';

describe.skipIf(dynamoEndpoint === '')('the event-log table on DynamoDB Local', () => {
  const client = localDocumentClient();
  beforeAll(() => ensureEventLogTable(client, tableName));
  describeEventLogContract('DynamoEventLog', (clock) => new DynamoEventLog({ tableName, client, clock }));
  describeEventLogContract(
    'CachedEventLog over DynamoEventLog',
    (clock) => new CachedEventLog(new DynamoEventLog({ tableName, client, clock })),
  );
  describeOutcomeStoreContract('DynamoOutcomeStore', () => new DynamoOutcomeStore({ tableName, client }));
  describeSessionDirectoryContract(
    'DynamoSessionDirectory',
    () => new DynamoSessionDirectory({ tableName, client }),
  );
  describeTurnQueueContract('DynamoTurnQueue', () => new DynamoTurnQueue({ tableName, client }));
  describeTenantControlsContract(
    'DynamoTenantControls',
    () => new DynamoTenantControls({ tableName, client }),
  );
  describeTenantSpendContract('DynamoTenantSpend', () => new DynamoTenantSpend({ tableName, client }));
  describeUsageLedgerContract('DynamoUsageLedger', () => ({
    log: new DynamoEventLog({ tableName, client }),
    usage: new DynamoUsageLedger({ tableName, client }),
  }));
});
