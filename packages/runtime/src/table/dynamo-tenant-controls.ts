import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Ceiling,
  ceilingOf,
  type Suspension,
  type TenantControl,
  type TenantControls,
} from '../tenants/tenant-controls.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from './dynamo-table.js';

/** The partition key of a tenant's controls: apart from every session's (those hold a `.`). */
const controlsKey = (tag: string) => ({ pk: `tenant#${tag}`, sk: 'controls' });

/** The item's attribute for each figure of a ceiling. */
const CEILING_ATTRIBUTES: Readonly<Record<keyof Ceiling, string>> = {
  usdPerDay: 'ceilingUsdPerDay',
  usdPerMonth: 'ceilingUsdPerMonth',
  tokensPerDay: 'ceilingTokensPerDay',
  tokensPerMonth: 'ceilingTokensPerMonth',
};
const FIGURES = Object.keys(CEILING_ATTRIBUTES) as Array<keyof Ceiling>;

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
    const ceiling = ceilingOf(
      Object.fromEntries(
        FIGURES.map((figure) => {
          const value = Item?.[CEILING_ATTRIBUTES[figure]];
          return [figure, typeof value === 'number' ? value : undefined];
        }),
      ),
    );
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
    const given = FIGURES.filter((figure) => ceiling?.[figure] !== undefined);
    const dropped = FIGURES.filter((figure) => ceiling?.[figure] === undefined);
    const set = given.map((figure) => `${CEILING_ATTRIBUTES[figure]} = :${figure}`);
    await this.#db.client.send(
      new UpdateCommand({
        TableName: this.#db.name,
        Key: controlsKey(tag),
        UpdateExpression: [
          ...(set.length > 0 ? [`SET ${set.join(', ')}`] : []),
          ...(dropped.length > 0
            ? [`REMOVE ${dropped.map((figure) => CEILING_ATTRIBUTES[figure]).join(', ')}`]
            : []),
        ].join(' '),
        ...(given.length > 0
          ? {
              ExpressionAttributeValues: Object.fromEntries(
                given.map((figure) => [`:${figure}`, ceiling?.[figure]]),
              ),
            }
          : {}),
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
