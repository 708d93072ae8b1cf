/** A page of the console, as the URL's hash names it (`#/sessions/ID`, `#/workflows/RUN`, …). */
export type Route =
  | { page: 'sessions' }
  | { page: 'session'; session: string }
  | { page: 'workflows' }
  | { page: 'workflow'; run: string };

/**
 * The page a hash names; anything unknown is the sessions list. Hash routes never reach the
 * server, so they cannot clash with the API's paths.
 */
export function parseRoute(hash: string): Route {
  const [first, second] = hash.replace(/^#\/?/, '').split('/');
  if (first === 'sessions' && second) return { page: 'session', session: decodeURIComponent(second) };
  if (first === 'workflows' && second) return { page: 'workflow', run: decodeURIComponent(second) };
  if (first === 'workflows') return { page: 'workflows' };
  return { page: 'sessions' };
}

/** The hash that opens a session's page. */
export function sessionHref(session: string): string {
  return `#/sessions/${encodeURIComponent(session)}`;
}

/** The hash that opens a workflow run's page. */
export function workflowHref(run: string): string {
  return `#/workflows/${encodeURIComponent(run)}`;
}
