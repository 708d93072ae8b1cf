import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
import type { ApprovalTokenStore } from './approval-token-store.js';

/** An {@link ApprovalTokenStore} in the event-log table: one item per approval, in its session. */
export class DynamoApprovalTokenStore implements ApprovalTokenStore {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async put(session: string, approval: string, token: string): Promise<void> {
    await this.#db.client.send(
      new PutCommand({
        TableName: this.#db.name,
        Item: { pk: session, sk: sortKeys.taskToken(approval), token },
      }),
    );
  }

  async get(session: string, approval: string): Promise<string | undefined> {
    const { Item } = await this.#db.client.send(
      new GetCommand({
        TableName: this.#db.name,
        Key: { pk: session, sk: sortKeys.taskToken(approval) },
        ConsistentRead: true,
      }),
    );
    return typeof Item?.token === 'string' ? Item.token : undefined;
  }
}
