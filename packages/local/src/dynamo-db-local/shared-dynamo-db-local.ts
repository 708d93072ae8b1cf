import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { check } from 'proper-lockfile';
import { dynamoDbLocalClient } from './dynamo-db-local-client.js';
import { JavaMissingError } from './java-missing-error.js';
import { KEEPER_EXIT_JAVA_MISSING, spawnKeeper } from './keeper-process.js';
import { readKeeperAddress, storeFiles } from './store-files.js';
import { KEEPER_LOCK_STALE_MS } from './store-keeper.js';

/** Options of {@link openSharedDynamoDbLocal}. */
export interface SharedDynamoDbLocalOptions {
  /** How long DynamoDB Local keeps running after its last user leaves, when this call starts it. @default 0 */
  idleMs?: number;
  /** How long to wait for it to answer. @default 60 s */
  startTimeoutMs?: number;
}

/** What happened to the DynamoDB Local a user is joined to. */
export type StoreChange = 'lost' | 'restored';

/** A connection to a project folder's shared DynamoDB Local, kept across its restarts. */
export interface SharedDynamoDbLocal {
  /** `http://127.0.0.1:<port>` of the DynamoDB Local joined last. */
  readonly endpoint: string;
  /**
   * A client for it, with the fixed region and dummy credentials DynamoDB Local accepts; its
   * requests follow the store to wherever it serves after a restart.
   */
  client: DynamoDBClient;
  /**
   * Hears `lost` when the DynamoDB Local stops under this user (it exited, or was killed), and
   * `restored` once the user has joined the next one, which this connection starts as any user
   * would. Returns how to stop listening.
   */
  onChange(listener: (change: StoreChange) => void): () => void;
  /** Leaves it; the last user to leave stops it (after the idle period). */
  stop(): Promise<void>;
}

/** How often a waiting user looks for the keeper's address. */
const POLL_MS = 50;
/** How long a user waits for the keeper it started before it may start another. */
const RESPAWN_MS = 2_000;
/** How long a user that lost its DynamoDB Local waits after a failed attempt to join the next one. */
const REJOIN_PAUSE_MS = 1_000;

/**
 * Joins the one DynamoDB Local that serves a project folder (`.agentstep`), starting its keeper
 * when none is running. Every process on the folder shares it, so two never run on one database;
 * it stops when its last user leaves, whether that user stopped, exited or was killed. Should it
 * stop while this user stays (its process was killed), the user joins the next one by itself
 * (see {@link SharedDynamoDbLocal.onChange}). Throws {@link JavaMissingError} when Java is missing.
 */
export async function openSharedDynamoDbLocal(
  folder: string,
  options: SharedDynamoDbLocalOptions = {},
): Promise<SharedDynamoDbLocal> {
  const root = resolve(folder);
  return keptConnection(await joinOrStart(root, options), (left) => joinOrStart(root, options, left));
}

/**
 * Joins the folder's keeper, starting one when none runs, within the options' start timeout;
 * gives up as soon as `left()` says the user has left meanwhile.
 */
async function joinOrStart(
  root: string,
  options: SharedDynamoDbLocalOptions,
  left: () => boolean = () => false,
): Promise<Joined> {
  const files = storeFiles(root);
  mkdirSync(files.data, { recursive: true });
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let keeper: ChildProcess | undefined;
  let startedAt = 0;
  while (Date.now() < deadline) {
    if (left()) throw new Error('The user left before it joined DynamoDB Local.');
    const address = readKeeperAddress(root);
    const joined = address === undefined ? undefined : await joinKeeper(address.port);
    if (joined !== undefined) return joined;
    if (keeper !== undefined) keeperFailure(keeper, files.log);
    if (Date.now() - startedAt > RESPAWN_MS && !(await isKept(files.data))) {
      keeper = spawnKeeper(root, options.idleMs ?? 0, files.log);
      startedAt = Date.now();
    }
    await sleep(POLL_MS);
  }
  throw new Error(`DynamoDB Local for ${root} did not start within ${timeoutMs} ms; see ${files.log}.`);
}

interface Joined {
  endpoint: string;
  socket: Socket;
}

/**
 * The connection to the keeper joined first; when its keeper goes while the user stays, `rejoin`
 * is tried until it succeeds (or the user leaves), and the client follows the new endpoint.
 */
function keptConnection(
  first: Joined,
  rejoin: (left: () => boolean) => Promise<Joined>,
): SharedDynamoDbLocal {
  let current = first;
  let stopped = false;
  const listeners = new Set<(change: StoreChange) => void>();
  const tell = (change: StoreChange) => {
    for (const listener of listeners) listener(change);
  };
  const client = dynamoDbLocalClient(() => current.endpoint);
  const watch = (joined: Joined) => joined.socket.once('close', () => void recover());
  const recover = async () => {
    if (stopped) return;
    tell('lost');
    while (!stopped) {
      const joined = await rejoin(() => stopped).catch(() => undefined);
      if (joined !== undefined) {
        current = joined;
        break;
      }
      if (!stopped) await sleep(REJOIN_PAUSE_MS);
    }
    if (stopped) {
      current.socket.destroy();
      return;
    }
    watch(current);
    tell('restored');
  };
  watch(first);
  return {
    get endpoint() {
      return current.endpoint;
    },
    client,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: async () => {
      stopped = true;
      client.destroy();
      current.socket.destroy();
    },
  };
}

/** Whether a live keeper holds the folder (a killed one's lock goes stale). */
function isKept(dataDir: string): Promise<boolean> {
  return check(dataDir, { stale: KEEPER_LOCK_STALE_MS, realpath: false });
}

/** Throws what ended the keeper this user started, if it failed. */
function keeperFailure(keeper: ChildProcess, log: string): void {
  const code = keeper.exitCode;
  if (code === null || code === 0) return;
  if (code === KEEPER_EXIT_JAVA_MISSING) throw new JavaMissingError();
  const last = readFileSync(log, 'utf8').trim().split('\n').at(-1) ?? '';
  throw new Error(`DynamoDB Local could not start: ${last.replace(/^\S+ /, '')} (log: ${log})`);
}

/**
 * Connects to a keeper and reads the endpoint it sends; `undefined` when nothing answers there
 * (the keeper is gone or stopping, or the port is someone else's).
 */
function joinKeeper(port: number): Promise<Joined | undefined> {
  return new Promise((settle) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    const give = (joined: Joined | undefined) => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (joined === undefined) socket.destroy();
      settle(joined);
    };
    const timer = setTimeout(() => give(undefined), 2_000);
    socket.setEncoding('utf8');
    socket.on('error', () => give(undefined));
    socket.once('close', () => give(undefined));
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!received.includes('\n')) return;
      const endpoint = endpointIn(received);
      give(endpoint === undefined ? undefined : { endpoint, socket });
    });
    socket.unref();
  });
}

function endpointIn(line: string): string | undefined {
  try {
    const { endpoint } = JSON.parse(line);
    return typeof endpoint === 'string' && endpoint.startsWith('http://127.0.0.1:') ? endpoint : undefined;
  } catch {
    return undefined;
  }
}
