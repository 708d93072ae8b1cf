import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoTableOptions, documentClientOf, queryItems } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
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
    const items = await queryItems(this.#client, this.#table, session, { prefix: sortKeys.usagePrefix });
    return items.map((item) => stepUsageSchema.parse(JSON.parse(String(item.entry))));
  }
}
