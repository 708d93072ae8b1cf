import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { McpOAuth } from './mcp-oauth-spec.js';
import { requiredSecret } from './required-secret.js';
import type { SecretLookup } from './resolve-headers.js';
import { signingKey } from './signing-key.js';

/**
 * The official SDK's OAuth client-credentials provider for `oauth`, its credential read through
 * `secretOf`: `client_secret_basic` for a `clientSecret`, `private_key_jwt` for a `privateKey`.
 * The credentials go only to `oauth.issuer`. Throws, naming the secret, when it has no value or
 * (for a private key) holds no key that can sign with the algorithm.
 */
export async function mcpAuthProvider(oauth: McpOAuth, secretOf: SecretLookup): Promise<OAuthClientProvider> {
  const common = { clientId: oauth.clientId, expectedIssuer: oauth.issuer };
  const scope = oauth.scope === undefined ? {} : { scope: oauth.scope };
  if (oauth.clientSecret !== undefined) {
    const secret = oauth.clientSecret.secret;
    const clientSecret = await requiredSecret(secretOf, secret, 'The MCP oauth.clientSecret');
    return new ClientCredentialsProvider({ ...common, ...scope, clientSecret });
  }
  // Unreachable for a parsed spec; a spec built in code may skip the schema.
  if (oauth.privateKey === undefined)
    throw new Error('The MCP oauth needs a credential: clientSecret or privateKey ({ secret: NAME }).');
  const { secret } = oauth.privateKey;
  const pem = await requiredSecret(secretOf, secret, 'The MCP oauth.privateKey');
  const key = signingKey(pem, oauth.algorithm, `The secret "${secret}" of oauth.privateKey`);
  return new PrivateKeyJwtProvider({ ...common, ...scope, privateKey: key.pkcs8, algorithm: key.algorithm });
}
