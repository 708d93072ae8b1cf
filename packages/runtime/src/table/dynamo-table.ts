import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';

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

/** The table an adapter works on: its document client and its name. */
export interface DynamoTable {
  readonly client: DynamoDBDocumentClient;
  readonly name: string;
}

/** The table the options name, on their client or a default one. */
export function dynamoTable(options: DynamoTableOptions): DynamoTable {
  return { client: documentClientOf(options), name: options.tableName };
}

/** Which sort keys of a partition to read: those that start with a prefix, or a range. */
export type SortKeys = { prefix: string } | { from: string; to: string };

/** Every item of partition `pk` whose sort key matches, in key order: all pages, read consistently. */
export async function queryItems(
  client: DynamoDBDocumentClient,
  table: string,
  pk: string,
  keys: SortKeys,
): Promise<Array<Record<string, unknown>>> {
  const byPrefix = 'prefix' in keys;
  const pages = paginateQuery(
    { client },
    {
      TableName: table,
      KeyConditionExpression: byPrefix
        ? 'pk = :pk AND begins_with(sk, :prefix)'
        : 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: byPrefix
        ? { ':pk': pk, ':prefix': keys.prefix }
        : { ':pk': pk, ':from': keys.from, ':to': keys.to },
      ConsistentRead: true,
    },
  );
  const items: Array<Record<string, unknown>> = [];
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
}
