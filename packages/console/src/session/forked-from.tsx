import { useClient } from '../client-context.js';
import { useLoaded } from '../common/use-loaded.js';
import { sessionHref } from '../hash-route.js';

/**
 * Where a fork came from: a link to the session it was forked from and the event it was cut at;
 * nothing for a session that is not a fork (a fork's origin never changes, so it is read once).
 */
export function ForkedFrom({ session }: { session: string }) {
  const client = useClient();
  const { value: origin } = useLoaded(async () => (await client.get(session)).forkedFrom, undefined, [
    client,
    session,
  ]);
  if (origin === undefined) return null;
  return (
    <p class="forked-from">
      Forked from <a href={sessionHref(origin.session)}>{origin.session}</a> at event {origin.seq}
    </p>
  );
}
