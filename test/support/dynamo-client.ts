import { dynamoDbLocalClient } from '@agentstep/local';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';

/** The endpoint of the run's DynamoDB Local ('' when Java is missing). */
export const dynamoEndpoint = inject('dynamoEndpoint');

/** A document client on the run's DynamoDB Local. */
export function localDocumentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(dynamoDbLocalClient(dynamoEndpoint));
}
