import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';

/** The endpoint of the run's DynamoDB Local ('' when Java is missing). */
export const dynamoEndpoint = inject('dynamoEndpoint');

/** A document client on the run's DynamoDB Local. */
export function localDocumentClient(): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    endpoint: dynamoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(client);
}
