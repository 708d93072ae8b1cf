import { forkPoints, nearestForkPoints, type StoredEvent } from '@agentstep/protocol';
import { InvalidForkPointError } from '../errors.js';
import type { EventLog, ForkOrigin } from '../event-log/event-log.js';
import { refuseWorkflowSession } from '../workflows/refuse-workflow-session.js';

/** A fork as a client asks for it: a new session whose log is `from`'s up to seq `at`. */
export interface ForkRequest {
  /** The session to fork, as the log stores it. */
  from: string;
  /** The last seq the fork shares: a turn's end or a batch's results. */
  at: number;
  /** The new session, as the log stores it. */
  session: string;
  /** `from`'s log, when the caller has just read it (else it is read here). */
  events?: readonly StoredEvent[];
  /**
   * The request's idempotency key: a retry with it is answered as the first request was, even
   * after the fork's own turns. @default - none: a retry passes only while the fork is untouched
   */
  key?: string;
}

/**
 * Forks a session (issue 28): checks that `at` ends a turn or a batch's results (else
 * InvalidForkPointError naming the nearest points), then makes the new session share `from`'s
 * events up to `at` by reference, in one write whatever their number. No tool runs: the fork's
 * results are the log's. The new session is idle; a turn cut at a batch's results counts as ended
 * there. Forking again into the same session is a retry only while that fork is untouched, or
 * with the same `key`; otherwise SessionExistsError. Workflow runs and their goal sessions are
 * refused (WorkflowSessionError).
 */
export async function forkSession(request: ForkRequest, deps: { log: EventLog }): Promise<ForkOrigin> {
  const { from, at, session, key } = request;
  await refuseWorkflowSession(from, deps);
  await refuseWorkflowSession(session, deps);
  const points = forkPoints(request.events ?? (await deps.log.read(from)));
  if (!points.includes(at)) throw new InvalidForkPointError(from, at, nearestForkPoints(points, at));
  const origin = { session: from, seq: at };
  await deps.log.fork(session, origin, key === undefined ? {} : { key });
  return origin;
}
