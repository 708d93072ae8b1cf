import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { errors, type JWTVerifyGetKey, jwtVerify } from 'jose';

/** What {@link authorizeBearer} checks tokens against. */
export interface AuthorizeBearerDeps {
  /** The tokens' `iss`, exactly. */
  issuer: string;
  /** An `aud` the tokens must carry. */
  audience: string;
  /** The issuer's signing keys (`issuerKeys(issuer)`). */
  keys: JWTVerifyGetKey;
}

/** A REST API TOKEN authorizer's event: the `Authorization` header and the method called. */
export interface TokenAuthorizerEvent {
  authorizationToken: string;
  methodArn: string;
}

/** What API Gateway turns into `401 Unauthorized` when a Lambda authorizer throws it. */
export const UNAUTHORIZED = 'Unauthorized';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * A `Bearer` JWT signed by the issuer for the audience, unexpired and naming a `sub`, lets that
 * `sub` call the whole API (the policy is cached per token, so it must cover every route); the
 * tenant reaches the API as the context's `sub`. Any other token is refused with `Unauthorized`;
 * an issuer that cannot be reached throws its own error (a 500, not a refusal).
 */
export async function authorizeBearer(
  event: TokenAuthorizerEvent,
  deps: AuthorizeBearerDeps,
): Promise<APIGatewayAuthorizerResult> {
  const token = BEARER.exec(event.authorizationToken)?.[1];
  const sub = token === undefined ? undefined : await verifiedSub(token, deps);
  if (!sub) throw new Error(UNAUTHORIZED);
  return {
    principalId: sub,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStage(event.methodArn) }],
    },
    context: { sub },
  };
}

async function verifiedSub(token: string, deps: AuthorizeBearerDeps): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, deps.keys, {
      issuer: deps.issuer,
      audience: deps.audience,
      requiredClaims: ['sub'],
    });
    return payload.sub;
  } catch (error) {
    // A token that fails a check is the caller's; a key set that cannot be fetched is ours.
    const unreachable = error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid;
    if (error instanceof errors.JOSEError && !unreachable) return undefined;
    throw error;
  }
}

/** `arn:…:execute-api:region:account:api/stage/METHOD/path` → every method and path of that stage. */
function wholeStage(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  return `${api}/${stage}/*`;
}
