import type { ApprovalDecisionBody, StoredEvent, TurnBody } from '@agentstep/protocol';
import { AlreadyDecidedError, decideApproval, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { cancelSessionTurn } from './cancel-session-turn.js';
import { DEFAULT_POLL_MS, waitForLog } from './follow-log.js';
import { idsFor } from './ids.js';
import { MAX_BODY_BYTES } from './read-body.js';
import { refusalOf } from './refusal-of.js';
import type { AddressedSession } from './session-access.js';
import { listSession, startSessionTurn } from './start-session-turn.js';
import type { TurnFollowers } from './turn-followers.js';

// The turns of front-end protocols (the AI SDK's chat, AG-UI), whose client names the session and
// each turn: the session is created on first use, a turn's id derives from the client's, requests
// that answer approvals decide them, and a turn its clients left is cancelled.

/**
 * The text of a client's newest message as a turn's input: `400` naming `path` when it has no text,
 * or more than a `POST /sessions` body may carry (the rest of a conversation's body is history).
 */
export function promptOf(text: string, path: string): string {
  if (text.trim() === '')
    throw new ApiError(400, 'ValidationError', 'The newest message has no text to answer: send some.', [
      { path, message: 'must hold text' },
    ]);
  if (Buffer.byteLength(text) > MAX_BODY_BYTES)
    throw new ApiError(400, 'ValidationError', `The newest message is over ${MAX_BODY_BYTES} bytes.`, [
      { path, message: `must be at most ${MAX_BODY_BYTES} bytes` },
    ]);
  return text;
}

/** A turn a client asked for: its id, and the seq its stream starts after (just before its `user` event). */
export interface ClientTurn {
  turn: string;
  after: number;
}

/**
 * Starts the turn the client names `clientId` (within `scope`: the protocol) with `body`; a retried
 * request finds the turn it started. The session's first turn lists it among its tenant's sessions.
 */
export async function startClientTurn(
  deps: ApiDeps,
  addressed: AddressedSession,
  { scope, clientId, body }: { scope: string; clientId: string; body: TurnBody },
): Promise<ClientTurn> {
  const { tenant, session, stored } = addressed;
  const turn = idsFor(clientId, `${scope}\n${tenant}\n${session}`).turn();
  const answer = await startSessionTurn(deps, body, { tenant, session, turn });
  const start =
    answer.status === 'queued'
      ? await queuedTurnStart(deps, addressed, turn)
      : ((await deps.log.appended(stored, userMessageKey(turn)))?.firstSeq ?? 1);
  if (start === 1) await listSession(deps, tenant, session);
  return { turn, after: start - 1 };
}

/**
 * Waits until the queued turn `turn` has started (its `user` event's seq), as long as a stream may
 * last; `409 TurnWithdrawn` when its message left the queue without starting, `503 StillQueued` when
 * the stream's time ran out first.
 */
async function queuedTurnStart(
  deps: ApiDeps,
  { session, stored }: AddressedSession,
  turn: string,
): Promise<number> {
  const deadline = Date.now() + (deps.streamLimitMs ?? Number.POSITIVE_INFINITY);
  for (;;) {
    const seen = deps.changes?.version(stored);
    // The queue before the log: a turn that starts in between is in the log read after it.
    const queued = (await deps.queue.list(stored)).some((message) => message.turn === turn);
    const started = await deps.log.appended(stored, userMessageKey(turn));
    if (started !== undefined) return started.firstSeq;
    if (!queued)
      throw new ApiError(
        409,
        'TurnWithdrawn',
        `The message of turn ${turn} of session ${session} was withdrawn before its turn started.`,
      );
    if (Date.now() >= deadline)
      throw new ApiError(
        503,
        'StillQueued',
        `The message of turn ${turn} of session ${session} is still queued: its turn starts when the session is free; follow GET /chat/${session}/stream.`,
      );
    await waitForLog(deps, stored, deps.pollMs ?? DEFAULT_POLL_MS, seen);
  }
}

/** One decision a client's request makes on a call waiting for approval. */
export interface ClientDecision {
  approval: string;
  body: ApprovalDecisionBody;
}

/**
 * Decides each call as the caller's tenant. A call decided already (a retried request, or someone
 * else meanwhile) is left as it is; any other refusal (no such approval) is the API's error.
 */
export async function decideClientApprovals(
  deps: ApiDeps,
  { tenant, session, stored }: AddressedSession,
  decisions: readonly ClientDecision[],
): Promise<void> {
  for (const { approval, body } of decisions) {
    try {
      await decideApproval({ session: stored, approval, by: tenant, body }, deps);
    } catch (error) {
      if (!(error instanceof AlreadyDecidedError)) throw refusalOf(error, session);
    }
  }
}

/**
 * Where a client that was shown the running turn up to its wait for approval stands: the seq of the
 * turn's last approval request. What was logged since (a decision made elsewhere, an expiry) is sent
 * again with what follows.
 */
export function lastApprovalRequest(events: readonly StoredEvent[]): number {
  const turnStart = events.findLast(({ event }) => event.type === 'user')?.seq ?? 0;
  const request = events.findLast(
    ({ seq, event }) => seq > turnStart && event.type === 'approval' && event.payload.status === 'requested',
  );
  return request?.seq ?? events.at(-1)?.seq ?? 0;
}

/** The turn that holds the session while one runs; none once it has ended. */
export async function runningTurn(deps: ApiDeps, { stored }: AddressedSession): Promise<string | undefined> {
  return (await deps.log.holder(stored))?.turn;
}

/** The turn running in the session, or a 409 saying that none runs to follow or to decide for. */
export async function turnToFollow(deps: ApiDeps, addressed: AddressedSession): Promise<string> {
  const turn = await runningTurn(deps, addressed);
  if (turn !== undefined) return turn;
  const { session } = addressed;
  throw new ApiError(
    409,
    'TurnNotRunning',
    `No turn of session ${session} is running: there is nothing to follow or decide. GET /sessions/${session} shows how its last turn ended.`,
  );
}

/** How long a turn nobody follows any more runs on before it is cancelled. @default 10 s */
const DEFAULT_LEAVE_GRACE_MS = 10_000;

/**
 * Counts a stream as following `turn` until it closes; should its client leave before it is over
 * (the AI SDK's `stop()` and AG-UI's abort both abort the request, and so do a reload and a dropped
 * connection), the turn is cancelled unless, `deps.leaveGraceMs` later, another stream follows it
 * (a reload or a retry came back) or it has ended.
 */
export function followedTurn(
  deps: ApiDeps,
  followers: TurnFollowers,
  addressed: AddressedSession,
  turn: string,
): { onAbort: () => void; onClose: () => void } {
  const release = followers.follow(addressed.stored, turn);
  const onAbort = () => {
    release();
    const timer = setTimeout(() => {
      if (!followers.followed(addressed.stored, turn)) cancelLeftTurn(deps, addressed, turn);
    }, deps.leaveGraceMs ?? DEFAULT_LEAVE_GRACE_MS);
    timer.unref?.();
  };
  return { onAbort, onClose: release };
}

/** Cancels `turn` if it still runs; a turn that ended (or gave way to another) is left alone. */
function cancelLeftTurn(deps: ApiDeps, { stored, session }: AddressedSession, turn: string): void {
  cancelSessionTurn(deps, stored, session, turn).catch((error: unknown) => {
    // A refusal (the turn is over) needs no one's attention; anything else is logged.
    if (!(error instanceof ApiError)) console.error(error);
  });
}
