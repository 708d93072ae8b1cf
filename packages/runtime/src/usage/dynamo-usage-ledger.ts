import { markerKeyOf, markerOf } from '../table/append-marker.js';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from '../table/dynamo-table.js';
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
  readonly #db: DynamoTable;

  constructor(options: DynamoUsageLedgerOptions) {
    this.#db = dynamoTable(options);
  }

  async list(session: string): Promise<StepUsage[]> {
    const items = await queryItems(this.#db.client, this.#db.name, session, {
      prefix: sortKeys.appendPrefix(MODEL_STEP_KEY_PREFIX),
    });
    const firstParts = items
      .map((item) => ({ ...markerKeyOf(String(item.sk)), ...markerOf(item) }))
      .filter((marker) => marker.part === 0);
    return ledgerOf(session, firstParts);
  }
}
