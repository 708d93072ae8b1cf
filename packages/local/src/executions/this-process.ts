import { randomUUID } from 'node:crypto';
import type { ExecutionOwner } from './execution-owners.js';

/** This process as the turns it runs are recorded and closed. */
interface ThisProcess {
  /** How this process is named as the owner of a turn. */
  owner: ExecutionOwner;
  /** The executions any starter of this process is running now, by id. */
  running: Set<string>;
  /** The orphaned turns being closed now, by execution id: a second sweep joins the first. */
  closing: Map<string, Promise<boolean>>;
}

const KEY = Symbol.for('agentstep.executions');

const shared = globalThis as Record<symbol, ThisProcess | undefined>;
shared[KEY] ??= {
  owner: { pid: process.pid, instance: randomUUID() },
  running: new Set(),
  closing: new Map(),
};

/**
 * This process, one for every copy of `@agentstep/local` it loads (a bundle and a library, two
 * versions), so no copy takes another's live turns for orphans.
 */
export const thisProcess: ThisProcess = shared[KEY];
