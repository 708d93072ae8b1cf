import { ERROR_NAMES } from '@agentstep/protocol';
import type { LeaseOptions } from '../event-log/event-log.js';
import type { AppendResultsDeps } from './append-results.js';
import { closeOpenBatch } from './close-open-batch.js';
import { turnEndKey, turnEndRecord } from './end-turn.js';

/**
 * Makes `turn` the session's writer by its lease. A turn whose lease had expired (or any turn,
 * with `takeOver`) loses the session and is closed in the log: its open batch gets failure
 * results (its waiting approvals cancelled) and it gets its terminal record, so no turn is left
 * without an end.
 */
export async function takeSession(
  session: string,
  turn: string,
  lease: LeaseOptions,
  deps: AppendResultsDeps,
): Promise<{ previous?: string }> {
  const taken = await deps.log.acquireTurn(session, turn, lease);
  const { previous } = taken;
  if (previous === undefined) return taken;
  const reason = `Turn ${previous} stopped answering (its lease expired or was taken over) and turn ${turn} took the session over.`;
  await closeOpenBatch({ session, turn: previous, writer: turn }, `The call never finished: ${reason}`, deps);
  // Written by the new holder under the old turn's own end key: a late end of the old turn is a replay.
  const end = { session, turn: previous, status: 'failed' as const, message: reason };
  await deps.log.append({
    session,
    turn,
    key: turnEndKey(previous),
    events: [turnEndRecord({ ...end, error: ERROR_NAMES.turnTakenOver }, deps.clock)],
  });
  return taken;
}
