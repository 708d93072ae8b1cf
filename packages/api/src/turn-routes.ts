import { type TurnAccepted, type TurnBody, type TurnCancelled, turnBodySchema } from '@agentstep/protocol';
import { beginTurn, cancelTurn, tenantTag, userMessageKey } from '@agentstep/runtime';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { idsFor } from './ids.js';
import { readBody } from './read-body.js';
import { refusalOf } from './refusal-of.js';
import { existingLog, tenantOf } from './session-access.js';
import { storedSession } from './tenants.js';

/**
 * `POST /sessions` (a new session and its first turn), `POST /sessions/{id}/messages` (the next
 * turn) and `POST /sessions/{id}/cancel` (stop the running one).
 */
export function addTurnRoutes(app: Hono, deps: ApiDeps): void {
  app.post('/sessions', async (c) => {
    const body = await readBody(c, turnBodySchema);
    const tenant = tenantOf(c);
    const ids = idsFor(c.req.header('idempotency-key'), `sessions\n${tenant}`);
    const session = ids.session();
    const started = await startTurn(c, deps, body, { tenant, session, turn: ids.turn() });
    await deps.directory.add(tenantTag(tenant), 'session', { id: session, createdAt: deps.clock.now() });
    return started;
  });
  app.post('/sessions/:id/messages', async (c) => {
    const body = await readBody(c, turnBodySchema);
    const { tenant, session } = await existingLog(c, deps);
    const ids = idsFor(c.req.header('idempotency-key'), `messages\n${tenant}\n${session}`);
    return startTurn(c, deps, body, { tenant, session, turn: ids.turn() });
  });
  app.post('/sessions/:id/cancel', async (c) => {
    const { session, stored } = await existingLog(c, deps);
    try {
      const { turn } = await cancelTurn(stored, cancelDeps(deps));
      const cancelled: TurnCancelled = { session, turn, status: 'cancelled' };
      return c.json(cancelled, 202);
    } catch (error) {
      throw refusalOf(error, session);
    }
  });
}

/** Cancelling also wakes the turn's calls waiting for approval, so they fail at once. */
function cancelDeps(deps: ApiDeps) {
  const { approvalTokens, taskTokens, cancelGraceMs } = deps;
  return {
    ...deps,
    wake: { approvalTokens, taskTokens },
    ...(cancelGraceMs === undefined ? {} : { graceMs: cancelGraceMs }),
  };
}

interface TurnIds {
  tenant: string;
  session: string;
  turn: string;
}

/**
 * Starts turn `turn` of `session` and answers 202. A turn already started under these ids (a
 * retried request with the same Idempotency-Key) is answered as it was, without starting anything.
 */
async function startTurn(c: Context, deps: ApiDeps, body: TurnBody, { tenant, session, turn }: TurnIds) {
  const stored = storedSession(tenant, session);
  const accepted: TurnAccepted = { session, turn, status: 'running' };
  if ((await deps.log.appended(stored, userMessageKey(turn))) !== undefined) return c.json(accepted, 202);
  try {
    await beginTurn(
      // The turn's result and end event name the session as the tenant knows it.
      { session: stored, prompt: body.message, limits: { ...limitsOf(body), request: { session, tenant } } },
      { ...deps, ids: { session: () => stored, turn: () => turn } },
    );
  } catch (error) {
    throw refusalOf(error, session);
  }
  return c.json(accepted, 202);
}

function limitsOf({ maxSteps, budget, toolExecution }: TurnBody) {
  return {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(budget === undefined ? {} : { budget }),
    ...(toolExecution === undefined ? {} : { toolExecution }),
  };
}
