import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { markerKeyOf, markerOf } from '../table/append-marker.js';
import { type DynamoTableOptions, documentClientOf, queryItems } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
import { ledgerOf } from './ledger-of.js';
import { MODEL_STEP_KEY_PREFIX } from './model-step-key.js';
import type { StepUsage } from './step-usage.js';
import type { UsageLedger } from './usage-ledger.js';

/** Options of {@link DynamoUsageLedger}: the event-log table, and optionally the client. */
export type DynamoUsageLedgerOptions = DynamoTableOptions;

/**
 * A {@link UsageLedger} in the event-log table: one query of the session's model-step markers,
 * whose first parts hold the steps' notes.
 */
export class DynamoUsageLedger implements UsageLedger {
  readonly #client: DynamoDBDocumentClient;
  readonly #table: string;

  constructor(options: DynamoUsageLedgerOptions) {
    this.#client = documentClientOf(options);
    this.#table = options.tableName;
  }

  async list(session: string): Promise<StepUsage[]> {
    const items = await queryItems(this.#client, this.#table, session, {
      prefix: sortKeys.appendPrefix(MODEL_STEP_KEY_PREFIX),
    });
    const firstParts = items
      .map((item) => ({ ...markerKeyOf(String(item.sk)), ...markerOf(item) }))
      .filter((marker) => marker.part === 0);
    return ledgerOf(session, firstParts);
  }
}
