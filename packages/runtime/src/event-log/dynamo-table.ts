import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Where an adapter on the event-log table works. */
export interface DynamoTableOptions {
  /** The table made by the `EventLogTable` construct (or `ensureEventLogTable` locally). */
  tableName: string;
  /** @default a document client on a default `DynamoDBClient` */
  client?: DynamoDBDocumentClient;
}

/** The document client the options name, or a default one. */
export function documentClientOf(options: Pick<DynamoTableOptions, 'client'>): DynamoDBDocumentClient {
  return options.client ?? DynamoDBDocumentClient.from(new DynamoDBClient({}));
}
