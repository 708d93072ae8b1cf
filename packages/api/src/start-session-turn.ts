import type { TurnAccepted, TurnBody, TurnQueued } from '@agentstep/protocol';
import { beginTurn, tenantTag, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { queueSessionTurn } from './queue-session-turn.js';
import { refusalOf } from './refusal-of.js';
import { refuseTenantTurn } from './refuse-tenant-turn.js';
import { storedSession } from './tenants.js';

/** A turn as a tenant names it: its session (as the tenant knows it) and the turn's id. */
export interface TurnIds {
  tenant: string;
  session: string;
  turn: string;
}

/**
 * Starts turn `turn` of `session` with `body`'s message and limits; while another turn runs, as
 * `body.ifBusy` says: refused (`reject`, the default), queued (`enqueue`) or started once the running
 * turn is cancelled (`interrupt`). A turn already started under these ids (a retried request) is
 * left as it is: nothing starts twice. Refusals (a turn already running, a budget spent, a tenant
 * suspended) are thrown as the API's errors.
 */
export async function startSessionTurn(
  deps: ApiDeps,
  body: TurnBody,
  { tenant, session, turn }: TurnIds,
): Promise<TurnAccepted | TurnQueued> {
  const stored = storedSession(tenant, session);
  const running: TurnAccepted = { session, turn, status: 'running' };
  if ((await deps.log.appended(stored, userMessageKey(turn))) !== undefined) return running;
  await refuseTenantTurn(deps, tenant);
  // The turn's result and end event name the session as the tenant knows it.
  const limits = { ...limitsOf(body), request: { session, tenant } };
  try {
    if (body.ifBusy === 'enqueue' || body.ifBusy === 'interrupt') {
      const message = { turn, prompt: body.message, limits, queuedAt: deps.clock.now() };
      return await queueSessionTurn(deps, { tenant, session, turn, stored }, message, body.ifBusy);
    }
    // Messages waiting for their turns come first: the session is busy for a message that does not queue.
    if ((await deps.queue.list(stored)).length > 0) throw queuedAhead(session);
    await beginTurn(
      { session: stored, prompt: body.message, limits },
      { ...deps, ids: { session: () => stored, turn: () => turn } },
    );
    return running;
  } catch (error) {
    throw refusalOf(error, session);
  }
}

/** 409 for a message that does not queue while others wait for their turns. */
function queuedAhead(session: string): ApiError {
  return new ApiError(
    409,
    'SessionBusy',
    `Session ${session} has messages waiting for their turns: send this one with "ifBusy": "enqueue" to queue it after them.`,
  );
}

/** Lists a new session among its tenant's sessions (`GET /sessions`). */
export async function listSession(deps: ApiDeps, tenant: string, session: string): Promise<void> {
  await deps.directory.add(tenantTag(tenant), 'session', { id: session, createdAt: deps.clock.now() });
}

function limitsOf({ maxSteps, budget, toolExecution }: TurnBody) {
  return {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(budget === undefined ? {} : { budget }),
    ...(toolExecution === undefined ? {} : { toolExecution }),
  };
}
