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

export { storedSession } from '@agentstep/runtime';
