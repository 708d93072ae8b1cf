import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoEventLog } from '../event-log/dynamo-event-log.js';
import { DynamoOutcomeStore } from '../outcomes/dynamo-outcome-store.js';
import { DynamoUsageLedger } from '../usage/dynamo-usage-ledger.js';
import { documentClientOf } from './dynamo-table.js';

/** The event log, the outcome store and the usage ledger on one table, sharing one client. */
export function dynamoStores(
  tableName: string,
  client: DynamoDBDocumentClient = documentClientOf({}),
): { log: DynamoEventLog; outcomes: DynamoOutcomeStore; usage: DynamoUsageLedger } {
  return {
    log: new DynamoEventLog({ tableName, client }),
    outcomes: new DynamoOutcomeStore({ tableName, client }),
    usage: new DynamoUsageLedger({ tableName, client }),
  };
}
