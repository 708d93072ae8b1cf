import { CreateTableCommand, type DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';

/** Key attributes of the event-log table; the CDK construct declares the same ones. */
export const EVENT_LOG_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** Creates the event-log table if it does not exist (for DynamoDB Local; CDK owns it on AWS). */
export async function ensureEventLogTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: EVENT_LOG_KEYS.partitionKey, AttributeType: 'S' },
          { AttributeName: EVENT_LOG_KEYS.sortKey, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: EVENT_LOG_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: EVENT_LOG_KEYS.sortKey, KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}
