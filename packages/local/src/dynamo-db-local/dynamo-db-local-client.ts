import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * A client for a DynamoDB Local at `endpoint` (or wherever `endpoint()` says at each request): a
 * fixed region and the dummy credentials it accepts (it keeps one database for all of them,
 * `-sharedDb`).
 */
export function dynamoDbLocalClient(endpoint: string | (() => string)): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: typeof endpoint === 'string' ? endpoint : async () => ({ url: new URL(endpoint()) }),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
}
