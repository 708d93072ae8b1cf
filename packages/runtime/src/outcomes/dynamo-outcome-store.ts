import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
import { loadBody, storeBody } from '../table/stored-body.js';
import type { CallRef, OutcomeStore, StoredOutcome } from './outcome-store.js';

/** Options of {@link DynamoOutcomeStore}: the event-log table, and optionally the client. */
export type DynamoOutcomeStoreOptions = DynamoTableOptions;

/** An {@link OutcomeStore} in the event-log table; outputs too large for an item are chunked. */
export class DynamoOutcomeStore implements OutcomeStore {
  readonly #db: DynamoTable;

  constructor(options: DynamoOutcomeStoreOptions) {
    this.#db = dynamoTable(options);
  }

  async put(call: CallRef, outcome: StoredOutcome): Promise<StoredOutcome> {
    const stored = await storeBody(this.#db.client, this.#db.name, call.session, JSON.stringify(outcome));
    try {
      await this.#db.client.send(
        new PutCommand({
          TableName: this.#db.name,
          Item: { pk: call.session, sk: sortKeys.outcome(call.batch, call.position), ...stored },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      return outcome;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return (await this.get(call)) as StoredOutcome;
    }
  }

  async get(call: CallRef): Promise<StoredOutcome | undefined> {
    const { Item } = await this.#db.client.send(
      new GetCommand({
        TableName: this.#db.name,
        Key: { pk: call.session, sk: sortKeys.outcome(call.batch, call.position) },
        ConsistentRead: true,
      }),
    );
    return Item && this.#decode(call.session, Item);
  }

  async markStarted(call: CallRef): Promise<boolean> {
    try {
      await this.#db.client.send(
        new PutCommand({
          TableName: this.#db.name,
          Item: { pk: call.session, sk: sortKeys.started(call.batch, call.position) },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async started(call: CallRef): Promise<boolean> {
    const { Item } = await this.#db.client.send(
      new GetCommand({
        TableName: this.#db.name,
        Key: { pk: call.session, sk: sortKeys.started(call.batch, call.position) },
        ConsistentRead: true,
      }),
    );
    return Item !== undefined;
  }

  async list(session: string, batch: string, count: number): Promise<Array<StoredOutcome | undefined>> {
    const outcomes = new Array<StoredOutcome | undefined>(count).fill(undefined);
    const prefix = sortKeys.outcomePrefix(batch);
    for (const item of await queryItems(this.#db.client, this.#db.name, session, { prefix })) {
      const position = Number(String(item.sk).slice(prefix.length));
      if (position < count) outcomes[position] = await this.#decode(session, item);
    }
    return outcomes;
  }

  async #decode(session: string, item: Record<string, unknown>): Promise<StoredOutcome> {
    return JSON.parse(await loadBody(this.#db.client, this.#db.name, session, item)) as StoredOutcome;
  }
}
