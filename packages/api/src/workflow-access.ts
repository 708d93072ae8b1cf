import type { StoredEvent } from '@agentstep/protocol';
import { type RunLog, runLogOf } from '@agentstep/runtime';
import type { Context } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { isPublicSessionId } from './ids.js';
import { type AddressedSession, tenantOf } from './session-access.js';
import { storedSession } from './tenants.js';

/** 404 for a run that does not exist, or that belongs to another tenant (never told apart). */
export function workflowRunNotFound(run: string): ApiError {
  return new ApiError(404, 'WorkflowRunNotFound', `Workflow run ${run} was not found.`);
}

/** The run the caller's tenant addresses by the id in the path (a run is a session of its own). */
export function addressedRun(c: Context): AddressedSession {
  const tenant = tenantOf(c);
  const run = c.req.param('run') ?? '';
  if (!isPublicSessionId(run)) throw workflowRunNotFound(run);
  return { tenant, session: run, stored: storedSession(tenant, run) };
}

/**
 * The addressed run's log, as events and as a run; 404 when it has none (unknown, another
 * tenant's, or a session that is not a run).
 */
export async function existingRun(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession = addressedRun(c),
): Promise<AddressedSession & { events: StoredEvent[]; log: RunLog }> {
  const events = await deps.log.read(addressed.stored);
  const log = runLogOf(addressed.stored, events);
  if (log === undefined) throw workflowRunNotFound(addressed.session);
  return { ...addressed, events, log };
}
