import * as oauth from 'oauth4webapi';
import * as z from 'zod/mini';
import { isPlainHttpOnThisMachine, type OidcSignIn } from '../console-config.js';
import type { Credentials } from './credentials.js';
import { storedValue } from './stored-value.js';
import { tokenForAudience } from './token-for-audience.js';

/** What a sign-in started in this tab keeps until the issuer sends the browser back. */
const pendingSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  hash: z.string(),
});
const PENDING_KEY = 'agentstep.console.oidc-pending';

/**
 * Sends the browser to the issuer to sign in: the authorization code flow with PKCE (S256), a
 * state and a nonce, coming back to this page (its redirect URI) on the page it left.
 */
export async function beginOidcSignIn(signIn: OidcSignIn): Promise<void> {
  const server = await authorizationServer(signIn);
  if (server.authorization_endpoint === undefined)
    throw new Error(`The issuer ${signIn.issuer} names no authorization_endpoint in its discovery document.`);
  const pending = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
    hash: location.hash,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: signIn.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: [...new Set(['openid', ...signIn.scopes])].join(' '),
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  }).toString();
  location.assign(url);
}

/**
 * Finishes a sign-in when the issuer has sent the browser back (`?code=…` or `?error=…`): checks
 * the state, trades the code and its verifier for tokens, and returns the one carrying the API's
 * audience; `undefined` when this page load is no such return. Either way the query is taken off
 * the address and the page the sign-in started on is restored.
 */
export async function completeOidcSignIn(signIn: OidcSignIn): Promise<Credentials | undefined> {
  const params = new URLSearchParams(location.search);
  if (!params.has('code') && !params.has('error')) return undefined;
  const pending = takePending();
  history.replaceState(null, '', `${location.pathname}${pending?.hash ?? ''}`);
  if (pending === undefined)
    throw new Error('The issuer sent back a sign-in this tab did not start: sign in again.');
  const server = await authorizationServer(signIn);
  const client = { client_id: signIn.clientId };
  const callback = issuerAnswer(server, client, params, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    callback,
    redirectUri(),
    pending.verifier,
    requestOptions(signIn),
  );
  const result = await oauth.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const token = tokenForAudience([result.access_token, result.id_token], signIn.audience);
  if (token === undefined)
    throw new Error(
      `Neither token from ${signIn.issuer} carries the audience "${signIn.audience}" the API requires: check the console's client and the API's audience.`,
    );
  const claims = oauth.getValidatedIdTokenClaims(result);
  return {
    token: token.jwt,
    who: displayName(claims),
    ...(token.expiresAt ? { expiresAt: token.expiresAt } : {}),
  };
}

/** The issuer's endpoints, from its discovery document (which must name the issuer itself). */
async function authorizationServer(signIn: OidcSignIn): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(signIn.issuer);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, requestOptions(signIn)));
}

/** Plain HTTP is allowed only to an issuer on this machine, as in development and tests. */
function requestOptions(signIn: OidcSignIn) {
  const issuer = new URL(signIn.issuer);
  return { [oauth.allowInsecureRequests]: isPlainHttpOnThisMachine(issuer) };
}

/**
 * The callback's parameters once its state (and `iss`, where the issuer sends it) match; an
 * error the issuer sent back (the person declined, the client is not allowed) is said as it is.
 */
function issuerAnswer(
  server: oauth.AuthorizationServer,
  client: oauth.Client,
  params: URLSearchParams,
  state: string,
): URLSearchParams {
  try {
    return oauth.validateAuthResponse(server, client, params, state);
  } catch (error) {
    if (!(error instanceof oauth.AuthorizationResponseError)) throw error;
    const description = error.error_description ? ` (${error.error_description})` : '';
    throw new Error(`the issuer answered ${error.error}${description}.`);
  }
}

/** The folder this page is served from (`/` for `/` and `/index.html`): the redirect URI to register. */
function redirectUri(): string {
  return new URL('.', `${location.origin}${location.pathname}`).href;
}

/** The sign-in this tab started, if any, taken so that its state and verifier serve once. */
function takePending() {
  const pending = storedValue(sessionStorage, PENDING_KEY, pendingSchema);
  sessionStorage.removeItem(PENDING_KEY);
  return pending;
}

/** Who signed in, as people know them: their email or username, else the token's subject. */
function displayName(claims: oauth.IDToken | undefined): string {
  for (const key of ['email', 'preferred_username', 'name', 'sub'] as const) {
    const value = claims?.[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return 'signed in';
}
