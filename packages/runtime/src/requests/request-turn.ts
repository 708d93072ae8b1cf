import type { LoopState, Requester, TurnRequest } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import { batchId } from '../steps/batch-id.js';
import { type StartTurnDeps, startTurn } from '../steps/start-turn.js';
import { userMessageKey } from '../steps/submit-turn.js';
import { takeSession } from '../steps/take-session.js';
import { requestIds } from './request-ids.js';
import { requesterOf } from './requester-of.js';

/** A request whose turn another execution started (the same `requestId`): it only waits for its end. */
export interface DuplicateRequest {
  duplicate: true;
  session: string;
  turn: string;
  request: Requester;
}

/** What starting a requested turn needs: the stores and the deployment's limits and budget. */
export type RequestTurnDeps = StartTurnDeps;

/**
 * StartTurn for a turn an AWS service asked for (the execution contract): takes the session (a new
 * one when the request names none), appends the message once, noting which execution did, and
 * starts the turn. Another execution with the same `requestId` starts nothing: it gets the turn to
 * wait for. A retried StartTurn of the same execution finds its own turn and goes on.
 */
export async function requestTurn(
  input: { request: TurnRequest; execution: string },
  deps: RequestTurnDeps,
): Promise<LoopState | DuplicateRequest> {
  const { request, execution } = input;
  const { session, stored, turn } = requestIds(request, execution);
  const requester = requesterOf(request, session);
  const duplicate: DuplicateRequest = { duplicate: true, session: stored, turn, request: requester };
  const key = userMessageKey(turn);
  if (await submittedByAnother(stored, key, execution, deps)) return duplicate;
  await takeSession(stored, turn, {}, deps);
  const user = { type: 'user' as const, content: request.message, timestamp: deps.clock.now() / 1000 };
  const appended = await deps.log.append({
    session: stored,
    turn,
    key,
    note: { execution },
    events: [{ event: user }],
    // The turn's start: its first model step finds it and knows it was not taken yet.
    mark: batchId(turn, 0),
  });
  // Two executions of one request at once: the one whose message landed runs the turn.
  if (appended.replayed && (await submittedByAnother(stored, key, execution, deps))) return duplicate;
  const { message: _, session: __, tenant: ___, requestId: ____, ...limits } = request;
  return startTurn({ ...limits, session: stored, turn, request: requester }, deps);
}

/** Whether the turn's message was appended by another execution than this one. */
async function submittedByAnother(
  session: string,
  key: string,
  execution: string,
  deps: AppendResultsDeps,
): Promise<boolean> {
  const by = await submittedBy(deps.log, session, key);
  return by !== undefined && by !== execution;
}

/** The execution that appended a requested turn's message, if one did. */
export async function submittedBy(log: EventLog, session: string, key: string): Promise<string | undefined> {
  const appended = await log.appended(session, key);
  if (appended === undefined) return undefined;
  return String(appended.note?.execution ?? '');
}
