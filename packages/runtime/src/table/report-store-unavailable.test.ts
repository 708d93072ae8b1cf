import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../errors.js';
import { reportStoreUnavailable } from './report-store-unavailable.js';

/** A DynamoDB endpoint that answers every request with `status` and DynamoDB's error body of type `type`. */
function failingDynamoDb(status: number, type: string): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: 'no' }));
    });
  });
  return new Promise((settle) => server.listen(0, '127.0.0.1', () => settle(server)));
}

function clientOf(endpoint: string): DynamoDBDocumentClient {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    }),
  );
  reportStoreUnavailable(client);
  return client;
}

const get = (client: DynamoDBDocumentClient) =>
  client.send(new GetCommand({ TableName: 'events', Key: { pk: 'a', sk: 'b' } }));

const servers: Server[] = [];
const urls: Record<string, string> = {};

beforeAll(async () => {
  for (const [name, status, type] of [
    ['server error', 500, 'InternalServerError'],
    ['throttled', 400, 'ThrottlingException'],
    ['condition failed', 400, 'ConditionalCheckFailedException'],
  ] as const) {
    const server = await failingDynamoDb(status, type);
    servers.push(server);
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});

afterAll(() => {
  for (const server of servers) server.close();
});

describe('reportStoreUnavailable', () => {
  it('a refused connection is StoreUnavailable, the network error its cause', async () => {
    const closed = await failingDynamoDb(500, 'InternalServerError');
    const { port } = closed.address() as AddressInfo;
    await new Promise((settle) => closed.close(settle));
    const error = await get(clientOf(`http://127.0.0.1:${port}`)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).name).toBe('StoreUnavailable');
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(((error as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it.each(['server error', 'throttled'])('a %s answer is StoreUnavailable', async (name) => {
    await expect(get(clientOf(urls[name] ?? ''))).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("the store's own refusals leave as the SDK threw them", async () => {
    const error = await get(clientOf(urls['condition failed'] ?? '')).catch((failure: unknown) => failure);
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).name).toBe('ConditionalCheckFailedException');
  });
});
