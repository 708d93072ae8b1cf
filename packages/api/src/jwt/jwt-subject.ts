import { errors, type JWTVerifyGetKey, jwtVerify } from 'jose';

/** What a bearer JWT is checked against. */
export interface JwtChecks {
  /** The tokens' `iss`, exactly. */
  issuer: string;
  /** An `aud` the tokens must carry. */
  audience: string;
  /** The issuer's signing keys (`issuerKeys(issuer)`). */
  keys: JWTVerifyGetKey;
}

/** A bearer JWT's verdict: the `sub` it names, or why it is refused, in a sentence for the caller. */
export type JwtVerdict = { sub: string } | { refused: string };

/**
 * The `sub` of a JWT signed by the issuer for the audience, carrying an `exp` still to come and a
 * `sub` that is a non-empty string; any other token is refused with the reason (the caller's fault,
 * said without the server's internals). A key set that cannot be fetched throws (ours).
 */
export async function jwtSubject(token: string, checks: JwtChecks): Promise<JwtVerdict> {
  try {
    const { payload } = await jwtVerify(token, checks.keys, {
      issuer: checks.issuer,
      audience: checks.audience,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '')
      return { refused: 'The token’s sub must be a non-empty string.' };
    return { sub: payload.sub };
  } catch (error) {
    // jose's plain JOSEError (ERR_JOSE_GENERIC) is a key set answering other than 200 with JSON.
    const unreachable =
      error instanceof errors.JWKSTimeout ||
      error instanceof errors.JWKSInvalid ||
      (error instanceof errors.JOSEError && error.code === errors.JOSEError.code);
    if (error instanceof errors.JOSEError && !unreachable) return { refused: reasonOf(error) };
    throw error;
  }
}

/** Why jose refused a token, as the caller is told it. */
function reasonOf(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired.';
  if (error instanceof errors.JWTClaimValidationFailed)
    return error.reason === 'missing'
      ? `The token has no ${error.claim} claim.`
      : `The token’s ${error.claim} claim is refused (${error.message}).`;
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'The token’s signature does not verify with the issuer’s keys.';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The token names no key the issuer publishes.';
  return `The token is not a JWT this API accepts (${error.message}).`;
}
