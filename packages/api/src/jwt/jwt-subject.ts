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

/**
 * The `sub` of a JWT signed by the issuer for the audience, unexpired; `undefined` for any token
 * that fails a check (the caller's fault). A key set that cannot be fetched throws (ours).
 */
export async function jwtSubject(token: string, checks: JwtChecks): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, checks.keys, {
      issuer: checks.issuer,
      audience: checks.audience,
      requiredClaims: ['sub'],
    });
    return payload.sub;
  } catch (error) {
    // jose's plain JOSEError (ERR_JOSE_GENERIC) is a key set answering other than 200 with JSON.
    const unreachable =
      error instanceof errors.JWKSTimeout ||
      error instanceof errors.JWKSInvalid ||
      (error instanceof errors.JOSEError && error.code === errors.JOSEError.code);
    if (error instanceof errors.JOSEError && !unreachable) return undefined;
    throw error;
  }
}
