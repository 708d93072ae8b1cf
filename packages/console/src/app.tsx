import { useMemo, useRef, useState } from 'preact/hooks';
import { ClientContext } from './client-context.js';
import { ThemeToggle } from './common/theme-toggle.js';
import { consoleClient } from './console-client.js';
import type { ConsoleConfig } from './console-config.js';
import { RoutedPage } from './routed-page.js';
import { type Credentials, forgetCredentials, rememberCredentials } from './sign-in/credentials.js';
import type { InitialSignIn } from './sign-in/initial-sign-in.js';
import { SignInPanel } from './sign-in/sign-in-panel.js';

/**
 * The console: a header (pages, who is signed in, the colour theme), the sign-in panel when the
 * API answered 401 (its kept credentials then forgotten) or a sign-in just failed, and the page the
 * hash names. Signing in makes a new client and renders the page afresh, which retries its requests.
 */
export function App({ config, initial }: { config: ConsoleConfig; initial: InitialSignIn }) {
  const [credentials, setCredentials] = useState(initial.credentials);
  const [unauthorized, setUnauthorized] = useState(initial.error !== undefined);
  const currentToken = useRef(credentials?.token);
  currentToken.current = credentials?.token;
  const client = useMemo(() => {
    const token = credentials?.token;
    return consoleClient(token, () => {
      // A late answer to credentials already replaced says nothing about the new ones.
      if (currentToken.current !== token) return;
      forgetCredentials(config.signIn);
      setUnauthorized(true);
      setCredentials(undefined);
    });
  }, [credentials, config]);
  const signIn = (next: Credentials) => {
    rememberCredentials(config.signIn, next);
    setUnauthorized(false);
    setCredentials(next);
  };
  return (
    <ClientContext.Provider value={client}>
      <header class="top">
        <a class="brand" href="#/">
          AgentStep
        </a>
        <nav aria-label="Pages">
          <a href="#/">Sessions</a>
          <a href="#/workflows">Workflows</a>
        </nav>
        <span class="who">
          {credentials === undefined ? 'not signed in' : `signed in as ${credentials.who}`}
        </span>
        <ThemeToggle />
      </header>
      {unauthorized && <SignInPanel signIn={config.signIn} error={initial.error} onSignIn={signIn} />}
      <main key={credentials?.token}>
        <RoutedPage />
      </main>
    </ClientContext.Provider>
  );
}
