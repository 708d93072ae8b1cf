import { ApiError } from './api-error.js';
import { bearerToken, type JwtChecks, jwtSubject } from './jwt/index.js';

/**
 * The tenant a request acts for, from its credentials; `undefined` when it carries none (or none it
 * reads); a 401 {@link ApiError} saying why when it refuses them. `env` is what the host hands the
 * app with the request (on Lambda, `{ event, requestContext }`), where an authorizer's verdict lives.
 */
export type TenantOf = (request: Request, env?: unknown) => string | undefined | Promise<string | undefined>;

/** Every request acts for one tenant: `agentstep serve --auth none`. */
export function singleTenant(tenant = 'local'): TenantOf {
  return () => tenant;
}

/** `Authorization: Bearer <name>` names the tenant: `agentstep serve --auth dev`, for tests. */
export const bearerNameTenant: TenantOf = (request) => bearerToken(request.headers.get('authorization'));

/**
 * The `sub` of the request's bearer JWT names the tenant, once the token passes `checks`:
 * `agentstep serve --auth jwt`, as the deployed API's authorizer does. A refused token is a 401
 * that says why (no `exp`, expired, another audience, a `sub` that is no non-empty string, …).
 */
export function jwtTenant(checks: JwtChecks): TenantOf {
  return async (request) => {
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined) return undefined;
    const verdict = await jwtSubject(token, checks);
    if ('sub' in verdict) return verdict.sub;
    throw new ApiError(
      401,
      'Unauthorized',
      `This request’s credentials were refused: ${verdict.refused} Sign in again.`,
    );
  };
}

export { storedSession } from '@agentstep/runtime';
