/** A bearer JWT the API accepts, and when it expires (milliseconds since the epoch). */
export interface AudienceToken {
  jwt: string;
  expiresAt: number | undefined;
}

/**
 * The first of `tokens` that is a JWT whose `aud` names `audience`: issuers differ in which token
 * carries the API's audience (an access token for a resource server, the ID token where the API's
 * audience is the console's own client id, as with Cognito). The signature is the API's to check.
 */
export function tokenForAudience(
  tokens: Array<string | undefined>,
  audience: string,
): AudienceToken | undefined {
  for (const jwt of tokens) {
    const claims = jwt === undefined ? undefined : payloadOf(jwt);
    if (jwt === undefined || claims === undefined) continue;
    const aud = claims.aud;
    if (aud === audience || (Array.isArray(aud) && aud.includes(audience)))
      return { jwt, expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined };
  }
  return undefined;
}

function payloadOf(jwt: string): Record<string, unknown> | undefined {
  const payload = jwt.split('.')[1];
  if (payload === undefined || jwt.split('.').length !== 3) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))),
    );
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
