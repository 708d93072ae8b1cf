import { useState } from 'preact/hooks';
import { ErrorNote } from '../common/error-note.js';
import { messageOf } from '../common/message-of.js';
import type { ConsoleConfig, OidcSignIn } from '../console-config.js';
import type { Credentials } from './credentials.js';
import { beginOidcSignIn } from './oidc-sign-in.js';
import { SignInForm } from './sign-in-form.js';

/**
 * What the page shows when the API asks who is calling: a name to sign in as (`serve --auth dev`),
 * or a button that signs in at the API's OIDC issuer; `error` says why the last try failed.
 */
export function SignInPanel({
  signIn,
  error,
  onSignIn,
}: {
  signIn: ConsoleConfig['signIn'];
  error: string | undefined;
  onSignIn: (credentials: Credentials) => void;
}) {
  return (
    <section class="sign-in" aria-label="Sign in">
      <ErrorNote error={error} />
      {signIn.kind === 'oidc' ? (
        <OidcSignInButton signIn={signIn} />
      ) : signIn.kind === 'name' ? (
        <SignInForm onSignIn={(name) => onSignIn({ token: name, who: name })} />
      ) : (
        <p>The API refused this request (401): it lets everyone in as one tenant, so check its address.</p>
      )}
    </section>
  );
}

function OidcSignInButton({ signIn }: { signIn: OidcSignIn }) {
  const [failure, setFailure] = useState<string>();
  return (
    <>
      <p>The API asks who you are.</p>
      <button
        type="button"
        onClick={() =>
          beginOidcSignIn(signIn).catch((error: unknown) =>
            setFailure(`Signing in at ${signIn.issuer} failed: ${messageOf(error)}`),
          )
        }
      >
        Sign in with {new URL(signIn.issuer).host}
      </button>
      <ErrorNote error={failure} />
    </>
  );
}
