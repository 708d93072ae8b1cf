import * as z from 'zod';

/** The algorithms a private key may sign its client assertion (a JWT) with: RSA, RSA-PSS and EC. */
export const MCP_OAUTH_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;

/** A JWS algorithm of {@link MCP_OAUTH_ALGORITHMS}. */
export type McpOAuthAlgorithm = (typeof MCP_OAUTH_ALGORITHMS)[number];

const secretSchema = z.strictObject(
  {
    /** The secret's name: an environment variable locally, a Secrets Manager secret (name or ARN) when deployed. */
    secret: z.string().min(1),
  },
  { error: 'a credential is named, never written here: { secret: NAME }' },
);

/**
 * How an agent gets an access token for an MCP server with OAuth client credentials (no person, no
 * browser): the client authenticates to its authorization server with a client secret (HTTP Basic,
 * `client_secret_basic`) or a private key signing a JWT (`private_key_jwt`), each read from a
 * secret; the token goes to the server as `Authorization: Bearer …`, fetched anew when it expires.
 */
export const mcpOAuthSchema = z
  .strictObject({
    /** The authorization server's issuer URL, as the server names it: the credentials go to it only. */
    issuer: z.url({
      protocol: /^https?$/,
      error: "oauth.issuer is the authorization server's issuer URL, http(s)://…",
    }),
    /** The client's id at the authorization server. */
    clientId: z.string().min(1),
    /** The client secret, sent with HTTP Basic authentication. */
    clientSecret: secretSchema.optional(),
    /** The private key (PEM, PKCS#8 or the key type's own) that signs the client's assertion. */
    privateKey: secretSchema.optional(),
    /** What `privateKey` signs with. @default RS256 for an RSA key, PS256 for RSA-PSS, ES256/384/512 for EC P-256/384/521 */
    algorithm: z.enum(MCP_OAUTH_ALGORITHMS).optional(),
    /** The scopes to ask for when the server names none (in its 401 or its metadata), space-separated. */
    scope: z.string().min(1).optional(),
  })
  .refine((oauth) => (oauth.clientSecret === undefined) !== (oauth.privateKey === undefined), {
    message:
      'oauth takes one credential: clientSecret ({ secret: NAME }, sent as HTTP Basic) or privateKey ({ secret: NAME }, a PEM key that signs a JWT)',
  })
  .refine((oauth) => oauth.algorithm === undefined || oauth.privateKey !== undefined, {
    message: 'oauth.algorithm is what privateKey signs with: it needs a privateKey',
    path: ['algorithm'],
  });

/** How an agent authenticates to an MCP server with OAuth client credentials: see {@link mcpOAuthSchema}. */
export type McpOAuth = z.infer<typeof mcpOAuthSchema>;
