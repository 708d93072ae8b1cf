import type { ApprovalDecisionBody, TurnBody } from '@agentstep/protocol';
import { AlreadyDecidedError, decideApproval, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { cancelSessionTurn } from './cancel-session-turn.js';
import { idsFor } from './ids.js';
import { refusalOf } from './refusal-of.js';
import type { AddressedSession } from './session-access.js';
import { listSession, startSessionTurn } from './start-session-turn.js';

/**
 * The turns of front-end protocols (the AI SDK's chat, AG-UI), whose client names the session and
 * each turn: the session is created on first use, a turn's id derives from the client's, requests
 * that answer approvals decide them, and a client that leaves cancels the turn it was following.
 */

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
  await startSessionTurn(deps, body, { tenant, session, turn });
  const start = (await deps.log.appended(stored, userMessageKey(turn)))?.firstSeq ?? 1;
  if (start === 1) await listSession(deps, tenant, session);
  return { turn, after: start - 1 };
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

/**
 * What to do when the client leaves a turn's stream before it is over (the AI SDK's `stop()` and
 * AG-UI's abort both abort the request): cancel `turn`, unless it has ended meanwhile.
 */
export function cancelOnLeave(deps: ApiDeps, addressed: AddressedSession, turn: string): () => void {
  const { session, stored } = addressed;
  return () => {
    void (async () => {
      if ((await deps.log.holder(stored))?.turn !== turn) return;
      await cancelSessionTurn(deps, stored, session);
    })().catch((error: unknown) => {
      // A refusal (no turn running any more) needs no one's attention; anything else is logged.
      if (!(error instanceof ApiError)) console.error(error);
    });
  };
}
