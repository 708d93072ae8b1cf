import { createHash } from 'node:crypto';
import type { TurnRequest } from '@agentstep/protocol';
import { storedSession } from './stored-session.js';

/** Where a requested turn runs: its session as the caller names it and as it is stored, and its turn. */
export interface RequestedIds {
  /** The session as the caller knows it (the result names it so). */
  session: string;
  /** The session as the store keeps it: under the tenant's tag when the request names a tenant. */
  stored: string;
  turn: string;
}

/**
 * The ids of a requested turn, the same on every delivery: from its `requestId` (so another
 * execution with the same one finds the same turn), else from the execution that started it (so a
 * retried StartTurn finds its own turn). A request without a session gets a new one, named alike.
 */
export function requestIds(request: TurnRequest, execution: string): RequestedIds {
  const key = request.requestId === undefined ? `execution:${execution}` : `request:${request.requestId}`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const session = request.session ?? `s-${hash}`;
  const stored = request.tenant === undefined ? session : storedSession(request.tenant, session);
  return { session, stored, turn: `t-${hash}` };
}
