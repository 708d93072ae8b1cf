import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DirectoryEntry,
  type DirectoryKind,
  newestFirst,
  type SessionDirectory,
} from '../session/session-directory.js';
import { type DynamoTableOptions, documentClientOf } from './dynamo-table.js';

/**
 * A {@link SessionDirectory} in the event-log table: one item per listed id in its owner's own
 * partition (`dir#<owner>`, sort key `<kind>#<id>`), written once (a conditional put), read by one
 * query per page of DynamoDB's.
 */
export class DynamoSessionDirectory implements SessionDirectory {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: DynamoTableOptions) {
    this.#client = documentClientOf(options);
    this.#table = options.tableName;
  }

  async add(owner: string, kind: DirectoryKind, entry: DirectoryEntry): Promise<void> {
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#table,
          Item: { pk: partition(owner), sk: `${kind}#${entry.id}`, createdAt: entry.createdAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      // Listed already: its first record stays.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async list(owner: string, kind: DirectoryKind): Promise<DirectoryEntry[]> {
    const entries: DirectoryEntry[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
          ExpressionAttributeValues: { ':pk': partition(owner), ':kind': `${kind}#` },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? [])
        entries.push({ id: String(item.sk).slice(kind.length + 1), createdAt: Number(item.createdAt) });
      start = page.LastEvaluatedKey;
    } while (start);
    return newestFirst(entries);
  }
}

function partition(owner: string): string {
  return `dir#${owner}`;
}
