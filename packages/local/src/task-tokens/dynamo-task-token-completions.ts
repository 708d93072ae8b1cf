import { type DynamoTable, type DynamoTableOptions, dynamoTable } from '@agentstep/runtime/dynamo';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TaskTokenCompletion, TaskTokenCompletions } from './task-token-completions.js';

/**
 * The event-log table's partition of task token completions. Session ids, the table's other
 * partition keys, never contain `~`.
 */
export const TASK_TOKENS_PARTITION = '~task-tokens';

/** Options of {@link DynamoTaskTokenCompletions}: the event-log table, and optionally the client. */
export type DynamoTaskTokenCompletionsOptions = DynamoTableOptions;

/**
 * {@link TaskTokenCompletions} in the event-log table, one item per completion (sort key: the
 * token), so that local processes sharing one DynamoDB Local store can complete each other's tasks.
 */
export class DynamoTaskTokenCompletions implements TaskTokenCompletions {
  readonly #db: DynamoTable;

  constructor(options: DynamoTaskTokenCompletionsOptions) {
    this.#db = dynamoTable(options);
  }

  async put(token: string, completion: TaskTokenCompletion): Promise<void> {
    await this.#db.client.send(
      new PutCommand({
        TableName: this.#db.name,
        // JSON text: any output comes back exactly as sent, whatever the document client's conversions.
        Item: { pk: TASK_TOKENS_PARTITION, sk: token, completion: JSON.stringify(completion) },
      }),
    );
  }

  async take(token: string): Promise<TaskTokenCompletion | undefined> {
    const key = { pk: TASK_TOKENS_PARTITION, sk: token };
    // Most polls find nothing: a consistent read costs less than a delete of a missing item.
    const { Item } = await this.#db.client.send(
      new GetCommand({ TableName: this.#db.name, Key: key, ConsistentRead: true }),
    );
    if (Item === undefined) return undefined;
    await this.#db.client.send(new DeleteCommand({ TableName: this.#db.name, Key: key }));
    return JSON.parse(String(Item.completion)) as TaskTokenCompletion;
  }
}
