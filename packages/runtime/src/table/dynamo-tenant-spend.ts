import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  periodEnd,
  periodsOf,
  type Refusal,
  type Reservation,
  SPEND_PERIODS,
  type SpendLimits,
  type SpendUnit,
  type Spent,
  type TenantSpend,
} from '../tenants/tenant-spend.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable } from './dynamo-table.js';

/** Each unit's counter items: their sort key's prefix and the attribute that counts. */
const COUNTERS: Readonly<Record<SpendUnit, { prefix: string; attribute: string }>> = {
  micros: { prefix: 'spend', attribute: 'micros' },
  tokens: { prefix: 'tokens', attribute: 'tokens' },
};

/** The item that counts a tenant's spend in one unit and period: beside its controls, apart from every session's. */
const counterKey = (tag: string, unit: SpendUnit, period: string) => ({
  pk: `tenant#${tag}`,
  sk: `${COUNTERS[unit].prefix}#${period}`,
});

/**
 * {@link TenantSpend} on the event-log table: one counter item per tenant, unit and period
 * (`spend#2026-11-29` in micro-dollars, `tokens#2026-11-29`), a reservation one transaction that
 * adds to the day's and the month's counters, each on the condition that its limit holds.
 */
export class DynamoTenantSpend implements TenantSpend {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async reserve(
    tag: string,
    unit: SpendUnit,
    amount: number,
    limits: SpendLimits,
    at: number,
  ): Promise<Reservation | Refusal> {
    const periods = periodsOf(at);
    try {
      await this.#add({ tag, unit, periods, amount }, limits);
      return { tag, unit, periods, amount };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const index = (error.CancellationReasons ?? []).findIndex(
        (reason) => reason.Code === 'ConditionalCheckFailed',
      );
      // Cancelled for another reason (a conflict with a concurrent reservation): no limit was
      // reached, so the caller retries rather than the tenant being held at a ceiling.
      const refused = SPEND_PERIODS[index];
      if (refused === undefined) throw error;
      await this.#db.client.send(
        new UpdateCommand({
          TableName: this.#db.name,
          Key: counterKey(tag, unit, periods[refused]),
          UpdateExpression: 'SET reachedLimit = :limit',
          ExpressionAttributeValues: { ':limit': limits[refused] ?? 0 },
        }),
      );
      return { refused, resetsAt: periodEnd(refused, at) };
    }
  }

  async settle(reservation: Reservation, cost: number): Promise<void> {
    await this.#add({ ...reservation, amount: cost - reservation.amount }, {});
  }

  async spent(tag: string, unit: SpendUnit, at: number): Promise<Spent> {
    const periods = periodsOf(at);
    const [day, month] = await Promise.all(
      SPEND_PERIODS.map(async (period) => {
        const { Item } = await this.#db.client.send(
          new GetCommand({
            TableName: this.#db.name,
            Key: counterKey(tag, unit, periods[period]),
            ConsistentRead: true,
          }),
        );
        return Item;
      }),
    );
    const reached: SpendLimits = {};
    if (typeof day?.reachedLimit === 'number') reached.day = day.reachedLimit;
    if (typeof month?.reachedLimit === 'number') reached.month = month.reachedLimit;
    const counted = (item: typeof day) => Number(item?.[COUNTERS[unit].attribute] ?? 0);
    return { day: counted(day), month: counted(month), reached };
  }

  /**
   * Adds the reservation's amount to its periods' counters in one transaction, each on the
   * condition its limit holds.
   */
  async #add({ tag, unit, periods, amount }: Reservation, limits: SpendLimits) {
    const { attribute } = COUNTERS[unit];
    await this.#db.client.send(
      new TransactWriteCommand({
        TransactItems: SPEND_PERIODS.map((period) => {
          const limit = limits[period];
          return {
            Update: {
              TableName: this.#db.name,
              Key: counterKey(tag, unit, periods[period]),
              UpdateExpression: `ADD ${attribute} :amount`,
              ...(limit === undefined
                ? { ExpressionAttributeValues: { ':amount': amount } }
                : {
                    // A first reservation must fit too: a counter not yet written holds nothing.
                    ConditionExpression: `(attribute_not_exists(${attribute}) AND :amount <= :limit) OR ${attribute} <= :room`,
                    ExpressionAttributeValues: {
                      ':amount': amount,
                      ':limit': limit,
                      ':room': limit - amount,
                    },
                  }),
            },
          };
        }),
      }),
    );
  }
}
