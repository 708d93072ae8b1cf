import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import * as z from 'zod';

/** The fields of an OIDC discovery document the API reads. */
const discoverySchema = z.object({ issuer: z.string(), jwks_uri: z.url() });

/**
 * The signing keys of an OIDC issuer: its discovery document
 * (`<issuer>/.well-known/openid-configuration`) is read on first use, then jose fetches and caches
 * the key set it names (again when a token names an unknown key). A failed discovery throws and is
 * tried again on the next call.
 */
export function issuerKeys(issuer: string): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    keys ??= discover(issuer).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return (await keys)(header, token);
  };
}

async function discover(issuer: string): Promise<JWTVerifyGetKey> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok)
    throw new Error(`OIDC discovery at ${url} answered ${response.status}: check the JWT issuer.`);
  const document = discoverySchema.parse(await response.json());
  // OIDC Discovery 1.0 §4.3: the document must name the issuer it was fetched for.
  if (document.issuer !== issuer)
    throw new Error(
      `OIDC discovery at ${url} names issuer ${document.issuer}, not ${issuer}: set the API's JWT issuer to exactly the tokens' iss.`,
    );
  return createRemoteJWKSet(new URL(document.jwks_uri));
}
