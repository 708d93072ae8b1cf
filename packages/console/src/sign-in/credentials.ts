import * as z from 'zod/mini';
import type { ConsoleConfig } from '../console-config.js';
import { storedValue } from './stored-value.js';

const credentialsSchema = z.object({
  token: z.string(),
  who: z.string(),
  expiresAt: z.optional(z.number()),
});

/**
 * What the console signs in with: the bearer token it sends, who that is (shown in the header),
 * and, for a JWT, when it expires (milliseconds since the epoch).
 */
export type Credentials = z.infer<typeof credentialsSchema>;

const KEY = 'agentstep.console.credentials';

/**
 * Where credentials are kept: a dev name for this browser (localStorage), an OIDC token for this
 * tab only (sessionStorage), as browser OIDC clients keep them.
 */
function storageFor(signIn: ConsoleConfig['signIn']): Storage {
  return signIn.kind === 'oidc' ? sessionStorage : localStorage;
}

/** The credentials kept for this way of signing in, unless none are or they have expired. */
export function storedCredentials(
  signIn: ConsoleConfig['signIn'],
  now = Date.now(),
): Credentials | undefined {
  const stored = storedValue(storageFor(signIn), KEY, credentialsSchema);
  if (stored?.expiresAt !== undefined && stored.expiresAt <= now) return undefined;
  return stored;
}

/** Keeps credentials to sign in with on the next visit. */
export function rememberCredentials(signIn: ConsoleConfig['signIn'], credentials: Credentials): void {
  storageFor(signIn).setItem(KEY, JSON.stringify(credentials));
}

/** Drops kept credentials, once the API has refused them. */
export function forgetCredentials(signIn: ConsoleConfig['signIn']): void {
  storageFor(signIn).removeItem(KEY);
}
