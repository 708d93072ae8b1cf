import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoTableOptions, documentClientOf } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
import type { ApprovalTokenStore } from './approval-token-store.js';

/** An {@link ApprovalTokenStore} in the event-log table: one item per approval, in its session. */
export class DynamoApprovalTokenStore implements ApprovalTokenStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: DynamoTableOptions) {
    this.#client = documentClientOf(options);
    this.#table = options.tableName;
  }

  async put(session: string, approval: string, token: string): Promise<void> {
    await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: { pk: session, sk: sortKeys.taskToken(approval), token },
      }),
    );
  }

  async get(session: string, approval: string): Promise<string | undefined> {
    const { Item } = await this.#client.send(
      new GetCommand({
        TableName: this.#table,
        Key: { pk: session, sk: sortKeys.taskToken(approval) },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.token === 'string' ? Item.token : undefined;
  }
}
