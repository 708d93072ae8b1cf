import { mkdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { stopOrphans } from './orphans.js';
import { removeKeeperAddress, storeFiles, writeKeeperAddress } from './store-files.js';

/** How long a keeper's lock lasts without renewal: a killed keeper's folder is free again after it. */
export const KEEPER_LOCK_STALE_MS = 5_000;
/** How long a new keeper waits for the user that started it before it stops again. */
const FIRST_USER_MS = 15_000;

/** Options of {@link runStoreKeeper}. */
export interface StoreKeeperOptions {
  /** The project's `.agentstep` folder. */
  folder: string;
  /** How long DynamoDB Local keeps running after its last user left. */
  idleMs: number;
}

/**
 * Keeps the one DynamoDB Local of a project folder for as long as it has users, and ends with the
 * DynamoDB Local stopped. Users hold a connection to the keeper's port on 127.0.0.1 (published in
 * `store.json`) and are sent the endpoint; a connection closes when its process ends, whatever
 * ends it. Returns at once, doing nothing, when another keeper holds the folder's lock.
 */
export async function runStoreKeeper(options: StoreKeeperOptions): Promise<void> {
  const folder = resolve(options.folder);
  const files = storeFiles(folder);
  mkdirSync(files.data, { recursive: true });
  const release = await takeLock(files.data);
  if (release === undefined) return;
  try {
    await stopOrphans(files.data);
    // Loaded only by the keeper that won the lock: the others exit without loading the SDK.
    const { startDynamoDbLocal } = await import('./start-dynamo-db-local.js');
    const local = await startDynamoDbLocal({ dataDir: files.data });
    const users = await serveUsers(local.endpoint, options.idleMs, local.exited);
    writeKeeperAddress(folder, { pid: process.pid, port: users.port });
    await users.finished;
    removeKeeperAddress(folder);
    await local.stop();
  } finally {
    await release();
  }
}

/** The folder's lock, or `undefined` when another keeper holds it. */
async function takeLock(dataDir: string): Promise<(() => Promise<void>) | undefined> {
  try {
    return await lock(dataDir, {
      stale: KEEPER_LOCK_STALE_MS,
      update: KEEPER_LOCK_STALE_MS / 5,
      realpath: false,
      // Lost only when this process stalled past the stale time: another keeper may start now.
      onCompromised: (error) => {
        console.error(`agentstep store keeper: lost its lock (${error.message}); stopping.`);
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

interface UserServer {
  port: number;
  /** Settles when the keeper should stop: idle long enough, DynamoDB Local gone, or a signal. */
  finished: Promise<void>;
}

/**
 * Counts connected users; finishes `idleMs` after the last one leaves (or none came), or as soon
 * as `gone` settles, so no user is ever sent to a DynamoDB Local that has stopped.
 */
async function serveUsers(endpoint: string, idleMs: number, gone: Promise<unknown>): Promise<UserServer> {
  const sockets = new Set<Socket>();
  let finish: () => void = () => {};
  const finished = new Promise<void>((settle) => {
    finish = settle;
  });
  let idle = setTimeout(finish, Math.max(idleMs, FIRST_USER_MS));
  const server: Server = createServer((socket) => {
    clearTimeout(idle);
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) idle = setTimeout(finish, idleMs);
    });
    socket.write(`${JSON.stringify({ endpoint })}\n`);
  });
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(name, finish);
  gone.then(finish);
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  // New users are refused from the moment the keeper decides to stop; they start the next keeper.
  const closed = finished.then(() => {
    server.close();
    for (const socket of sockets) socket.destroy();
  });
  return { port, finished: closed };
}
