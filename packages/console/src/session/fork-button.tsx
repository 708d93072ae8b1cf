import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { sessionHref } from '../hash-route.js';

/**
 * "Fork from here" at a point a session may be forked at (a turn's end, a batch's results): makes a
 * new session whose log is this one's up to `seq` (no tool runs again) and opens it.
 */
export function ForkButton({ session, seq }: { session: string; seq: number }) {
  const client = useClient();
  const [error, setError] = useState<unknown>();
  return (
    <div class="fork-point">
      <button
        type="button"
        class="quiet"
        title={`A new session with this one's events up to seq ${seq}: send it another message`}
        onClick={async () => {
          setError(undefined);
          try {
            const { session: fork } = await client.fork(session, { at: seq });
            location.hash = sessionHref(fork);
          } catch (failure) {
            setError(failure);
          }
        }}
      >
        Fork from here
      </button>
      <ErrorNote error={error} />
    </div>
  );
}
