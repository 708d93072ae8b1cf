import * as z from 'zod/mini';

/** Where the console reads its configuration: a file beside its index.html, written by its host. */
export const CONSOLE_CONFIG_FILE = 'config.json';

/** The console signs in with OpenID Connect: the authorization code flow with PKCE, a public client. */
const oidcSignIn = z.object({
  kind: z.literal('oidc'),
  /** The issuer the API trusts (its JWT authorizer's issuer), exactly the tokens' `iss`. */
  issuer: z.url(),
  /** The console's client at that issuer; its redirect URI is the console's own URL. */
  clientId: z.string().check(z.minLength(1)),
  /** The `aud` the API requires: the console sends whichever token (access or ID) carries it. */
  audience: z.string().check(z.minLength(1)),
  /** The scopes it asks for; `openid` is always among them. */
  scopes: z.array(z.string()),
});

/**
 * How the console signs in to the API it is served next to: `none` (`agentstep serve`, one
 * tenant), `name` (`serve --auth dev`: a name is the bearer token) or `oidc` (`serve --auth jwt`
 * and the deployed console: a token from the API's OIDC issuer).
 */
export const consoleConfigSchema = z.object({
  signIn: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('name') }),
    oidcSignIn,
  ]),
});

/** The console's configuration ({@link consoleConfigSchema}). */
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;

/** How the console signs in with OIDC. */
export type OidcSignIn = z.infer<typeof oidcSignIn>;

/**
 * Whether the console may sign in at `issuer` over plain HTTP: only on this machine (localhost,
 * 127.0.0.1, [::1]), as in development and tests; anywhere else it must be HTTPS.
 */
export function isPlainHttpOnThisMachine(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
}

/**
 * The Content-Security-Policy the console's files are served with: its own scripts and styles
 * only, requests to its own origin (the API) and, signing in with OIDC, to the issuer (discovery
 * and the token endpoint, which may live on another HTTPS host, as Cognito's does).
 */
export function consoleContentSecurityPolicy(config: ConsoleConfig): string {
  const issuerHosts = config.signIn.kind === 'oidc' ? ` ${new URL(config.signIn.issuer).origin} https:` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${issuerHosts}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
