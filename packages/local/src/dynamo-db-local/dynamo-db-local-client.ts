import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * A client for a DynamoDB Local at `endpoint`: a fixed region and the dummy credentials it
 * accepts (it keeps one database for all of them, `-sharedDb`).
 */
export function dynamoDbLocalClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
}
