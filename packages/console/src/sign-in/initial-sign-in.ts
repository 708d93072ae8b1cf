import { messageOf } from '../common/message-of.js';
import type { ConsoleConfig } from '../console-config.js';
import { type Credentials, rememberCredentials, storedCredentials } from './credentials.js';
import { completeOidcSignIn } from './oidc-sign-in.js';

/** Who the console starts signed in as, and why a sign-in that just came back failed, if it did. */
export interface InitialSignIn {
  credentials: Credentials | undefined;
  error: string | undefined;
}

/**
 * The credentials the page starts with: those of an OIDC sign-in the issuer has just sent back
 * (then kept), else those kept from before.
 */
export async function initialSignIn(config: ConsoleConfig): Promise<InitialSignIn> {
  const stored = storedCredentials(config.signIn);
  if (config.signIn.kind !== 'oidc') return { credentials: stored, error: undefined };
  try {
    const fresh = await completeOidcSignIn(config.signIn);
    if (fresh === undefined) return { credentials: stored, error: undefined };
    rememberCredentials(config.signIn, fresh);
    return { credentials: fresh, error: undefined };
  } catch (error) {
    return {
      credentials: undefined,
      error: `Signing in failed: ${messageOf(error)}`,
    };
  }
}
