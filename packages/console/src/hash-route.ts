/** A page of the console, as the URL's hash names it (`#/sessions/ID`, `#/workflows/RUN`, …). */
export type Route =
  | { page: 'sessions' }
  | { page: 'session'; session: string }
  | { page: 'workflows' }
  | { page: 'workflow'; run: string };

/**
 * The page a hash names; anything unknown is the sessions list, and an id that does not decode
 * (a bad `%` escape) its list page: it never throws. Hash routes never reach the server, so they
 * cannot clash with the API's paths.
 */
export function parseRoute(hash: string): Route {
  const [first, second] = hash.replace(/^#\/?/, '').split('/');
  const id = second ? decoded(second) : undefined;
  if (first === 'sessions' && id) return { page: 'session', session: id };
  if (first === 'workflows' && id) return { page: 'workflow', run: id };
  if (first === 'workflows') return { page: 'workflows' };
  return { page: 'sessions' };
}

/** The text a URI component stands for; `undefined` when it is malformed. */
function decoded(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    return undefined;
  }
}

/** The hash that opens a session's page. */
export function sessionHref(session: string): string {
  return `#/sessions/${encodeURIComponent(session)}`;
}

/** The hash that opens a workflow run's page. */
export function workflowHref(run: string): string {
  return `#/workflows/${encodeURIComponent(run)}`;
}
