import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a project folder's shared DynamoDB Local keeps its pieces: the database, the keeper's
 * lock on it, the address users find it at and the keeper's log.
 */
export function storeFiles(folder: string) {
  return {
    data: join(folder, 'dynamodb'),
    state: join(folder, 'store.json'),
    log: join(folder, 'store.log'),
  };
}

/** How users reach a running keeper: its process and its port on 127.0.0.1. */
export interface KeeperAddress {
  pid: number;
  port: number;
}

/** The address a keeper published, if a readable one is there. */
export function readKeeperAddress(folder: string): KeeperAddress | undefined {
  try {
    const { pid, port } = JSON.parse(readFileSync(storeFiles(folder).state, 'utf8'));
    return Number.isInteger(pid) && Number.isInteger(port) ? { pid, port } : undefined;
  } catch {
    return undefined;
  }
}

/** Publishes the keeper's address whole (written aside, then renamed into place). */
export function writeKeeperAddress(folder: string, address: KeeperAddress): void {
  const { state } = storeFiles(folder);
  writeFileSync(`${state}.${process.pid}`, JSON.stringify(address));
  renameSync(`${state}.${process.pid}`, state);
}

/** Withdraws the keeper's address, when it is this keeper's. */
export function removeKeeperAddress(folder: string): void {
  if (readKeeperAddress(folder)?.pid === process.pid) rmSync(storeFiles(folder).state, { force: true });
}
