import { type TurnBody, type TurnCancelled, turnBodySchema } from '@agentstep/protocol';
import type { Context, Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { cancelSessionTurn } from './cancel-session-turn.js';
import { idsFor } from './ids.js';
import { readBody } from './read-body.js';
import { existingLog, tenantOf } from './session-access.js';
import { listSession, startSessionTurn, type TurnIds } from './start-session-turn.js';

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
    await listSession(deps, tenant, session);
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
    const cancelled: TurnCancelled = {
      session,
      turn: await cancelSessionTurn(deps, stored, session),
      status: 'cancelled',
    };
    return c.json(cancelled, 202);
  });
}

/**
 * Starts (or queues, as `ifBusy` says) the turn and answers 202 (a retried request, with the same
 * Idempotency-Key, as it was answered).
 */
async function startTurn(c: Context, deps: ApiDeps, body: TurnBody, ids: TurnIds) {
  return c.json(await startSessionTurn(deps, body, ids), 202);
}
