import { createHash } from 'node:crypto';

/**
 * The tenant a request acts for, from its credentials; `undefined` when it carries none. `env` is
 * what the host hands the app with the request (on Lambda, `{ event, requestContext }`), where an
 * authorizer's verdict lives.
 */
export type TenantOf = (request: Request, env?: unknown) => string | undefined;

/** Every request acts for one tenant: `agentstep serve --auth none`. */
export function singleTenant(tenant = 'local'): TenantOf {
  return () => tenant;
}

/** `Authorization: Bearer <name>` names the tenant: `agentstep serve --auth dev`, for tests. */
export const bearerNameTenant: TenantOf = (request) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];

/**
 * The session id the store keeps a tenant's session under: a tag of the tenant, then the id the
 * tenant sees. Another tenant's sessions are out of reach, and their ids tell nothing.
 */
export function storedSession(tenant: string, session: string): string {
  return `${createHash('sha256').update(tenant).digest('hex').slice(0, 16)}.${session}`;
}
