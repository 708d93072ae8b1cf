import { bearerToken, type JwtChecks, jwtSubject } from '@agentstep/api/jwt';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/** What {@link authorizeBearer} checks tokens against. */
export type AuthorizeBearerDeps = JwtChecks;

/** A REST API TOKEN authorizer's event: the `Authorization` header and the method called. */
export interface TokenAuthorizerEvent {
  authorizationToken: string;
  methodArn: string;
}

/** What API Gateway turns into `401 Unauthorized` when a Lambda authorizer throws it. */
export const UNAUTHORIZED = 'Unauthorized';

/**
 * A `Bearer` JWT signed by the issuer for the audience, with an `exp` still to come and a `sub`
 * that is a non-empty string (as `agentstep serve --auth jwt` checks it), lets that `sub` call the
 * whole API (the policy is cached per token, so it must cover every route); the tenant reaches the
 * API as the context's `sub`. Any other token is refused with `Unauthorized`; an issuer that
 * cannot be reached throws its own error (a 500, not a refusal).
 */
export async function authorizeBearer(
  event: TokenAuthorizerEvent,
  deps: AuthorizeBearerDeps,
): Promise<APIGatewayAuthorizerResult> {
  const token = bearerToken(event.authorizationToken);
  const verdict = token === undefined ? undefined : await jwtSubject(token, deps);
  if (verdict === undefined || !('sub' in verdict)) throw new Error(UNAUTHORIZED);
  const { sub } = verdict;
  return {
    principalId: sub,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStage(event.methodArn) }],
    },
    context: { sub },
  };
}

/** `arn:…:execute-api:region:account:api/stage/METHOD/path` → every method and path of that stage. */
function wholeStage(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  return `${api}/${stage}/*`;
}
