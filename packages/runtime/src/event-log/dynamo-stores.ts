import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoOutcomeStore } from '../outcomes/dynamo-outcome-store.js';
import { DynamoEventLog } from './dynamo-event-log.js';
import { documentClientOf } from './dynamo-table.js';

/** The event log and the outcome store on one table, sharing one client. */
export function dynamoStores(
  tableName: string,
  client: DynamoDBDocumentClient = documentClientOf({}),
): { log: DynamoEventLog; outcomes: DynamoOutcomeStore } {
  return {
    log: new DynamoEventLog({ tableName, client }),
    outcomes: new DynamoOutcomeStore({ tableName, client }),
  };
}
