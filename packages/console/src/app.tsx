import { useMemo, useState } from 'preact/hooks';
import { ClientContext } from './client-context.js';
import { consoleClient } from './console-client.js';
import { RoutedPage } from './routed-page.js';
import { SignInForm } from './sign-in-form.js';
import { rememberName, signedInName } from './signed-in-name.js';

/**
 * The console: a header, the sign-in form when the API answered 401, and the page the hash names.
 * Signing in makes a new client and renders the page afresh, which retries its requests.
 */
export function App() {
  const [name, setName] = useState(signedInName);
  const [unauthorized, setUnauthorized] = useState(false);
  const client = useMemo(() => consoleClient(name, () => setUnauthorized(true)), [name]);
  const signIn = (next: string) => {
    rememberName(next);
    setUnauthorized(false);
    setName(next);
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
        <span class="who">{name === undefined ? 'not signed in' : `signed in as ${name}`}</span>
      </header>
      {unauthorized && <SignInForm onSignIn={signIn} />}
      <main key={name}>
        <RoutedPage />
      </main>
    </ClientContext.Provider>
  );
}
