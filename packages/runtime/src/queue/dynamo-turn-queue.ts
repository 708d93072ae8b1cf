import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DynamoTable, type DynamoTableOptions, dynamoTable, queryItems } from '../table/dynamo-table.js';
import { sortKeys } from '../table/sort-keys.js';
import type { QueuedMessage, QueuePlace, TurnQueue } from './turn-queue.js';

/** The partition listing the sessions with queued messages (no session id holds `#`), and its items' key. */
const INDEX = 'queue#sessions';
const indexKey = (session: string) => ({ pk: INDEX, sk: `session#${session}` });

/**
 * A {@link TurnQueue} in the event-log table: one item per queued message in its session's
 * partition (`q#<place>#<queued at>#<turn>`, so a query reads them in start order), and the
 * session in one index partition while it has any. Claims and withdrawals are conditional writes.
 */
export class DynamoTurnQueue implements TurnQueue {
  readonly #db: DynamoTable;

  constructor(options: DynamoTableOptions) {
    this.#db = dynamoTable(options);
  }

  async enqueue(session: string, message: QueuedMessage, place: QueuePlace = 'last'): Promise<number> {
    const { claimed: _, ...fields } = message;
    try {
      await this.#db.client.send(
        new TransactWriteCommand({
          TransactItems: [
            // A turn is queued once: its mark outlives the message, so a late retry adds nothing.
            {
              Put: {
                TableName: this.#db.name,
                Item: { pk: session, sk: sortKeys.queuedOnce(message.turn) },
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
            {
              Put: {
                TableName: this.#db.name,
                Item: { pk: session, sk: sortKeys.queued(place, message.queuedAt, message.turn), ...fields },
                ConditionExpression: 'attribute_not_exists(sk)',
              },
            },
            { Put: { TableName: this.#db.name, Item: indexKey(session) } },
          ],
        }),
      );
    } catch (error) {
      // Queued before (a retry, or one at the same moment): nothing more.
      if (!(error instanceof TransactionCanceledException)) throw error;
    }
    return (await this.list(session)).findIndex((entry) => entry.turn === message.turn) + 1;
  }

  async list(session: string): Promise<QueuedMessage[]> {
    const items = await queryItems(this.#db.client, this.#db.name, session, {
      prefix: sortKeys.queuedPrefix,
    });
    return items.map(messageOf);
  }

  async withdraw(session: string, turn: string): Promise<boolean> {
    const sk = await this.#keyOf(session, turn);
    if (sk === undefined) return false;
    const removed = await this.#conditionally(
      new DeleteCommand({
        TableName: this.#db.name,
        Key: { pk: session, sk },
        ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(claimed)',
      }),
    );
    if (removed) await this.#forgetIfEmpty(session);
    return removed;
  }

  async claim(session: string, turn: string): Promise<boolean> {
    const sk = await this.#keyOf(session, turn);
    if (sk === undefined) return false;
    return this.#conditionally(
      new UpdateCommand({
        TableName: this.#db.name,
        Key: { pk: session, sk },
        UpdateExpression: 'SET claimed = :claimed',
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeValues: { ':claimed': true },
      }),
    );
  }

  async remove(session: string, turn: string): Promise<void> {
    const sk = await this.#keyOf(session, turn);
    if (sk !== undefined)
      await this.#db.client.send(new DeleteCommand({ TableName: this.#db.name, Key: { pk: session, sk } }));
    await this.#forgetIfEmpty(session);
  }

  async sessions(): Promise<string[]> {
    const items = await queryItems(this.#db.client, this.#db.name, INDEX, { prefix: 'session#' });
    return items.map((item) => String(item.sk).slice('session#'.length));
  }

  async #keyOf(session: string, turn: string): Promise<string | undefined> {
    const items = await queryItems(this.#db.client, this.#db.name, session, {
      prefix: sortKeys.queuedPrefix,
    });
    const item = items.find((candidate) => candidate.turn === turn);
    return item === undefined ? undefined : String(item.sk);
  }

  /** Drops the session from the index once its queue is empty (a message queued meanwhile puts it back). */
  async #forgetIfEmpty(session: string): Promise<void> {
    if ((await this.list(session)).length > 0) return;
    await this.#db.client.send(new DeleteCommand({ TableName: this.#db.name, Key: indexKey(session) }));
    // A message queued between the read and the delete: list the session again.
    if ((await this.list(session)).length > 0)
      await this.#db.client.send(new PutCommand({ TableName: this.#db.name, Item: indexKey(session) }));
  }

  /** Sends a conditional write; false when its condition failed. */
  async #conditionally(command: DeleteCommand | UpdateCommand): Promise<boolean> {
    try {
      await this.#db.client.send(command);
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}

function messageOf(item: Record<string, unknown>): QueuedMessage {
  return {
    turn: String(item.turn),
    prompt: String(item.prompt),
    queuedAt: Number(item.queuedAt),
    ...(item.limits === undefined ? {} : { limits: item.limits as NonNullable<QueuedMessage['limits']> }),
    ...(item.claimed === true ? { claimed: true } : {}),
  };
}
