import { isSessionId, type StoredEvent } from '@agentstep/protocol';
import type { Context } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError, sessionNotFound } from './api-error.js';
import { MAX_PUBLIC_SESSION_LENGTH } from './ids.js';
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
  if (!isSessionId(session) || session.length > MAX_PUBLIC_SESSION_LENGTH) throw sessionNotFound(session);
  return { tenant, session, stored: storedSession(tenant, session) };
}

/** The addressed session's whole log; 404 when it has none (unknown, or another tenant's). */
export async function existingLog(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession = addressedSession(c),
) {
  const events: StoredEvent[] = await deps.log.read(addressed.stored);
  if (events.length === 0) throw sessionNotFound(addressed.session);
  return { ...addressed, events };
}

/**
 * An event of the addressed log as its tenant sees it: the child sessions a workflow run's `run`
 * and `output` records name are stored under the tenant's tag, and are shown by the ids the tenant
 * reads them by. Every other event is shown as stored.
 */
export function tenantView({ session, stored }: AddressedSession): (logged: StoredEvent) => StoredEvent {
  const tag = stored.slice(0, stored.length - session.length);
  return (logged) => {
    const { event } = logged;
    if (event.type !== 'workflow' || !('session' in event.payload)) return logged;
    const child = event.payload.session;
    if (!child.startsWith(tag)) return logged;
    return {
      ...logged,
      event: { ...event, payload: { ...event.payload, session: child.slice(tag.length) } },
    };
  };
}
