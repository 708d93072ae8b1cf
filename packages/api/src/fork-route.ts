import { forkBodySchema, type SessionForked } from '@agentstep/protocol';
import { forkSession, InvalidForkPointError, SessionExistsError } from '@agentstep/runtime';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { idsFor, publicSessionIdSchema } from './ids.js';
import { readBody } from './read-body.js';
import { refusalOf } from './refusal-of.js';
import { existingLog } from './session-access.js';
import { listSession } from './start-session-turn.js';
import { storedSession } from './tenants.js';

/** The fork's body as the API takes it: a new session id no longer than a tenant's may be. */
const apiForkBodySchema = forkBodySchema.extend({ session: publicSessionIdSchema.optional() });

/**
 * `POST /sessions/{id}/fork {"at", "session"?}`: a new session of the caller's tenant whose log is
 * this one's up to `at` (a turn's end or a batch's results), shared rather than copied, idle and
 * ready for its next message. A retried request with the same `Idempotency-Key` names the same
 * new session, forks it once and gets the first answer, even after the fork's own turns; without
 * one, forking again into the same session answers as before only while that fork is untouched.
 */
export function addForkRoute(app: Hono, deps: ApiDeps): void {
  app.post('/sessions/:id/fork', async (c) => {
    const body = await readBody(c, apiForkBodySchema);
    const { tenant, session, stored, events } = await existingLog(c, deps);
    const key = c.req.header('idempotency-key');
    const ids = idsFor(key, `fork\n${tenant}\n${session}\n${body.at}`);
    const fork = body.session ?? ids.session();
    const request = { from: stored, at: body.at, session: storedSession(tenant, fork), events };
    try {
      await forkSession(key === undefined ? request : { ...request, key }, deps);
    } catch (error) {
      throw forkRefusal(error, { session, fork, at: body.at });
    }
    await listSession(deps, tenant, fork);
    const forked: SessionForked = { session: fork, forkedFrom: { session, seq: body.at } };
    return c.json(forked, 201);
  });
}

/** The API's answer to a refused fork, naming the sessions as the tenant knows them. */
function forkRefusal(error: unknown, { session, fork, at }: { session: string; fork: string; at: number }) {
  if (error instanceof InvalidForkPointError) {
    const nearest = error.allowed.join(' and ');
    const message =
      error.allowed.length === 0
        ? `Session ${session} has no point to fork at yet: fork after a turn's end or a batch's results.`
        : `Session ${session} cannot be forked at seq ${at}: fork at a turn's end or a batch's results; the nearest are seqs ${nearest}.`;
    return new ApiError(400, error.name, message, [
      {
        path: 'at',
        message: error.allowed.length === 0 ? 'no fork point yet' : `nearest allowed: ${nearest}`,
      },
    ]);
  }
  if (error instanceof SessionExistsError)
    return new ApiError(
      409,
      error.name,
      `Session ${fork} already exists: fork into a new session id, or leave "session" out to get one. Forking into the same id again is answered as a retry only with the first request's Idempotency-Key, or while that fork has no events of its own and no turn running.`,
    );
  return refusalOf(error, session);
}
