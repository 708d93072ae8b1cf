import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ceiling, Suspension, TenantControl, TenantControls } from '../tenants/tenant-controls.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from './dynamo-table.js';

/** The partition key of a tenant's controls: apart from every session's (those hold a `.`). */
const controlsKey = (tag: string) => ({ pk: `tenant#${tag}`, sk: 'controls' });

/** {@link TenantControls} on the event-log table: one item per tenant an operator has touched (its suspension, its ceiling). */
export class DynamoTenantControls implements TenantControls {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async get(tag: string): Promise<TenantControl> {
    const { Item } = await this.#db.client.send(
      new GetCommand({ TableName: this.#db.name, Key: controlsKey(tag), ConsistentRead: true }),
    );
    const reason = typeof Item?.suspendedReason === 'string' ? { reason: Item.suspendedReason } : {};
    const ceiling = {
      ...(typeof Item?.ceilingUsdPerDay === 'number' ? { usdPerDay: Item.ceilingUsdPerDay } : {}),
      ...(typeof Item?.ceilingUsdPerMonth === 'number' ? { usdPerMonth: Item.ceilingUsdPerMonth } : {}),
    };
    return {
      ...(typeof Item?.suspendedSince === 'number'
        ? { suspended: { since: Item.suspendedSince, ...reason } }
        : {}),
      ...(Object.keys(ceiling).length > 0 ? { ceiling } : {}),
    };
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

  async setCeiling(tag: string, ceiling: Ceiling | undefined): Promise<void> {
    const { usdPerDay, usdPerMonth } = ceiling ?? {};
    const set = [
      ...(usdPerDay === undefined ? [] : ['ceilingUsdPerDay = :day']),
      ...(usdPerMonth === undefined ? [] : ['ceilingUsdPerMonth = :month']),
    ];
    const removed = [
      ...(usdPerDay === undefined ? ['ceilingUsdPerDay'] : []),
      ...(usdPerMonth === undefined ? ['ceilingUsdPerMonth'] : []),
    ];
    const values = {
      ...(usdPerDay === undefined ? {} : { ':day': usdPerDay }),
      ...(usdPerMonth === undefined ? {} : { ':month': usdPerMonth }),
    };
    await this.#db.client.send(
      new UpdateCommand({
        TableName: this.#db.name,
        Key: controlsKey(tag),
        UpdateExpression: [
          ...(set.length > 0 ? [`SET ${set.join(', ')}`] : []),
          ...(removed.length > 0 ? [`REMOVE ${removed.join(', ')}`] : []),
        ].join(' '),
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
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
