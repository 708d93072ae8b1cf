import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * What an authorization server said refusing a token request that `error` (or one of its causes)
 * reports, as `its authorization server (ISSUER) refused the token request (CODE: WHY)`; undefined
 * for any other error.
 */
export function oauthRefusal(error: unknown, issuer: string): string | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (!(cause instanceof OAuthError)) continue;
    const said = cause.message ? `${cause.errorCode}: ${cause.message}` : cause.errorCode;
    return `its authorization server (${issuer}) refused the token request (${said})`;
  }
  return undefined;
}
