import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** A real OpenID Connect issuer on this machine (oidc-provider) that signs in any name with any password. */
export interface OidcIssuer {
  /** Its issuer identifier, `http://127.0.0.1:PORT`. */
  issuer: string;
  /** Registers the public client `clientId` (PKCE, no secret) coming back to `redirectUri`. */
  register(clientId: string, redirectUri: string): Promise<void>;
  /** A JWT of exactly `claims` (nothing added), signed by the key the issuer publishes: tokens it would never issue. */
  sign(claims: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

/** Starts an issuer on a free port; its client is registered once the console's address is known. */
export async function startOidcIssuer(): Promise<OidcIssuer> {
  let provider: Provider | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (provider === undefined) {
      response.writeHead(503).end('no client registered yet');
      return;
    }
    provider.callback()(request, response);
  });
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  return {
    issuer,
    async register(clientId, redirectUri) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            token_endpoint_auth_method: 'none',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ['agentstep-test-cookie-key'] },
        features: { devInteractions: { enabled: true } },
        // The console trades its code from the browser, on another origin.
        clientBasedCORS: () => true,
        findAccount: (_: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      });
    },
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test' }).sign(privateKey),
    stop: () => new Promise((settle) => server.close(() => settle())),
  };
}
