import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Suspension, TenantControl, TenantControls } from '../tenants/tenant-controls.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from './dynamo-table.js';

/** The partition key of a tenant's controls: apart from every session's (those hold a `.`). */
const controlsKey = (tag: string) => ({ pk: `tenant#${tag}`, sk: 'controls' });

/** {@link TenantControls} on the event-log table: one item per tenant an operator has touched. */
export class DynamoTenantControls implements TenantControls {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async get(tag: string): Promise<TenantControl> {
    const { Item } = await this.#db.client.send(
      new GetCommand({ TableName: this.#db.name, Key: controlsKey(tag), ConsistentRead: true }),
    );
    if (typeof Item?.suspendedSince !== 'number') return {};
    const reason = typeof Item.suspendedReason === 'string' ? { reason: Item.suspendedReason } : {};
    return { suspended: { since: Item.suspendedSince, ...reason } };
  }

  async suspend(tag: string, { since, reason }: Suspension): Promise<void> {
    await this.#db.client.send(
      new UpdateCommand({
        TableName: this.#db.name,
        Key: controlsKey(tag),
        UpdateExpression: `SET suspendedSince = :since${reason === undefined ? ' REMOVE suspendedReason' : ', suspendedReason = :reason'}`,
        ExpressionAttributeValues: {
          ':since': since,
          ...(reason === undefined ? {} : { ':reason': reason }),
        },
      }),
    );
  }

  async resume(tag: string): Promise<void> {
    await this.#db.client.send(
      new UpdateCommand({
        TableName: this.#db.name,
        Key: controlsKey(tag),
        UpdateExpression: 'REMOVE suspendedSince, suspendedReason',
      }),
    );
  }
}
