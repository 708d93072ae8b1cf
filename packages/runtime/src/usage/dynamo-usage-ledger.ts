import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { sortKeys } from '../event-log/dynamo-keys.js';
import { type DynamoTableOptions, documentClientOf } from '../event-log/dynamo-table.js';
import { type StepUsage, stepUsageSchema } from './step-usage.js';
import type { UsageLedger } from './usage-ledger.js';

/** Options of {@link DynamoUsageLedger}: the event-log table, and optionally the client. */
export type DynamoUsageLedgerOptions = DynamoTableOptions;

/** A {@link UsageLedger} in the event-log table: one small item per entry, under the session. */
export class DynamoUsageLedger implements UsageLedger {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: DynamoUsageLedgerOptions) {
    this.#client = documentClientOf(options);
    this.#table = options.tableName;
  }

  async record(entry: StepUsage): Promise<void> {
    await this.#client.send(
      new PutCommand({
        TableName: this.#table,
        Item: { pk: entry.session, sk: sortKeys.usage(entry.at, randomUUID()), entry: JSON.stringify(entry) },
      }),
    );
  }

  async list(session: string): Promise<StepUsage[]> {
    const entries: StepUsage[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.#client.send(
        new QueryCommand({
          TableName: this.#table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': session, ':prefix': sortKeys.usagePrefix },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? [])
        entries.push(stepUsageSchema.parse(JSON.parse(String(item.entry))));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey !== undefined);
    return entries;
  }
}
