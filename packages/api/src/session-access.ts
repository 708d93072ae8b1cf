import type { StoredEvent } from '@agentstep/protocol';
import type { Context } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError, sessionNotFound } from './api-error.js';
import { isPublicSessionId } from './ids.js';
import { storedSession } from './tenants.js';

/** The context variable holding the caller's tenant, as `createApi` resolved it with `ApiDeps.tenantOf`. */
export const TENANT = 'tenant';

declare module 'hono' {
  interface ContextVariableMap {
    [TENANT]: string | undefined;
  }
}

/** The caller's tenant: 401 when the request carries no credentials. */
export function tenantOf(c: Context): string {
  const tenant = c.get(TENANT);
  if (tenant === undefined)
    throw new ApiError(
      401,
      'Unauthorized',
      c.req.header('authorization')
        ? 'This request’s credentials were refused (expired, or not for this API): sign in again.'
        : 'This request carries no credentials: send an Authorization header.',
    );
  return tenant;
}

/** The session a request addresses: the caller's tenant, the id in the path, and the id it is stored under. */
export interface AddressedSession {
  tenant: string;
  session: string;
  stored: string;
}

/** The session the caller's tenant addresses by the id in the path; 404 for an id no session can have. */
export function addressedSession(c: Context): AddressedSession {
  const tenant = tenantOf(c);
  const session = c.req.param('id') ?? '';
  if (!isPublicSessionId(session)) throw sessionNotFound(session);
  return { tenant, session, stored: storedSession(tenant, session) };
}

/**
 * The addressed session's whole log, and for a fork the last seq it shares with its parent; 404
 * when it has none (unknown, or another tenant's).
 */
export async function existingLog(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession = addressedSession(c),
) {
  const events: StoredEvent[] = await deps.log.read(addressed.stored);
  if (events.length === 0) throw sessionNotFound(addressed.session);
  // After the read, which learnt the origin: the log answers from what it knows, no second lookup.
  const origin = await deps.log.origin(addressed.stored);
  return { ...addressed, events, ...(origin ? { forkedAt: origin.seq } : {}) };
}

/**
 * An event of the addressed log as its tenant sees it: a workflow run's records name its child
 * sessions and its executions (and an end's message its goal sessions) by the ids they are stored
 * under, which hold the tenant's tag; they are shown by the ids the tenant knows. Every other event
 * is shown as stored.
 */
export function tenantView(addressed: AddressedSession): (logged: StoredEvent) => StoredEvent {
  const untag = untagged(addressed);
  return (logged) => {
    const { event } = logged;
    if (event.type !== 'workflow') return logged;
    const { payload, content } = event;
    const ids =
      'session' in payload ? { session: untag(payload.session), execution: untag(payload.execution) } : {};
    const text = content === undefined ? {} : { content: untag(content) };
    return { ...logged, event: { ...event, payload: { ...payload, ...ids }, ...text } };
  };
}

/** Text as the addressed session's tenant may see it: every stored id in it without the tenant's tag. */
export function untagged({ session, stored }: AddressedSession): (text: string) => string {
  const tag = stored.slice(0, stored.length - session.length - 1);
  // Stored ids hold the tag then "."; execution names, which allow no dots, hold it then "_".
  return (text) => text.replaceAll(`${tag}.`, '').replaceAll(`${tag}_`, '');
}
