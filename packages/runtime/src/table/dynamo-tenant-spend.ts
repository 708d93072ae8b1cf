import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  periodEnd,
  periodsOf,
  type Refusal,
  type Reservation,
  SPEND_PERIODS,
  type SpendLimits,
  type SpendPeriod,
  type Spent,
  type TenantSpend,
} from '../tenants/tenant-spend.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from './dynamo-table.js';

/** The item that counts a tenant's spend in one period: beside its controls, apart from every session's. */
const spendKey = (tag: string, period: string) => ({ pk: `tenant#${tag}`, sk: `spend#${period}` });

/**
 * {@link TenantSpend} on the event-log table: one counter item per tenant and period, a reservation
 * one transaction that adds to the day's and the month's counters, each on the condition that its
 * limit holds.
 */
export class DynamoTenantSpend implements TenantSpend {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async reserve(
    tag: string,
    micros: number,
    limits: SpendLimits,
    at: number,
  ): Promise<Reservation | Refusal> {
    const periods = periodsOf(at);
    try {
      await this.#add(tag, periods, micros, limits);
      return { tag, periods, micros };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const index = (error.CancellationReasons ?? []).findIndex(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
      const refused: SpendPeriod = SPEND_PERIODS[index] ?? 'day';
      await this.#db.client.send(
        new UpdateCommand({
          TableName: this.#db.name,
          Key: spendKey(tag, periods[refused]),
          UpdateExpression: 'SET reachedLimit = :limit',
          ExpressionAttributeValues: { ':limit': limits[refused] ?? 0 },
        }),
      );
      return { refused, resetsAt: periodEnd(refused, at) };
    }
  }

  async settle({ tag, periods, micros }: Reservation, cost: number): Promise<void> {
    await this.#add(tag, periods, cost - micros, {});
  }

  async spent(tag: string, at: number): Promise<Spent> {
    const periods = periodsOf(at);
    const [day, month] = await Promise.all(
      SPEND_PERIODS.map(async (period) => {
        const { Item } = await this.#db.client.send(
          new GetCommand({
            TableName: this.#db.name,
            Key: spendKey(tag, periods[period]),
            ConsistentRead: true,
          }),
        );
        return Item;
      }),
    );
    const reached: SpendLimits = {};
    if (typeof day?.reachedLimit === 'number') reached.day = day.reachedLimit;
    if (typeof month?.reachedLimit === 'number') reached.month = month.reachedLimit;
    return { day: Number(day?.micros ?? 0), month: Number(month?.micros ?? 0), reached };
  }

  /** Adds `micros` to the periods' counters in one transaction, each on the condition its limit holds. */
  async #add(tag: string, periods: Record<SpendPeriod, string>, micros: number, limits: SpendLimits) {
    await this.#db.client.send(
      new TransactWriteCommand({
        TransactItems: SPEND_PERIODS.map((period) => {
          const limit = limits[period];
          return {
            Update: {
              TableName: this.#db.name,
              Key: spendKey(tag, periods[period]),
              UpdateExpression: 'ADD micros :micros',
              ...(limit === undefined
                ? { ExpressionAttributeValues: { ':micros': micros } }
                : {
                    ConditionExpression: 'attribute_not_exists(micros) OR micros <= :room',
                    ExpressionAttributeValues: { ':micros': micros, ':room': limit - micros },
                  }),
            },
          };
        }),
      }),
    );
  }
}
