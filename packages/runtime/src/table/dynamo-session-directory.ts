import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DirectoryEntry,
  type DirectoryKind,
  newestFirst,
  type SessionDirectory,
} from '../session/session-directory.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from './dynamo-table.js';

/**
 * A {@link SessionDirectory} in the event-log table: one item per listed id in its owner's own
 * partition (`dir#<owner>`, sort key `<kind>#<id>`), written once (a conditional put), read by a
 * query of the owner's partition.
 */
export class DynamoSessionDirectory implements SessionDirectory {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async add(owner: string, kind: DirectoryKind, entry: DirectoryEntry): Promise<void> {
    try {
      await this.#db.client.send(
        new PutCommand({
          TableName: this.#db.name,
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
    const items = await queryItems(this.#db.client, this.#db.name, partition(owner), { prefix: `${kind}#` });
    return newestFirst(
      items.map((item) => ({
        id: String(item.sk).slice(kind.length + 1),
        createdAt: Number(item.createdAt),
      })),
    );
  }
}

function partition(owner: string): string {
  return `dir#${owner}`;
}
