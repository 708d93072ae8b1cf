import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { sessionHref } from '../hash-route.js';

/** Starts a session with its first message and opens its page. */
export function NewSessionForm() {
  const client = useClient();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<unknown>();
  return (
    <form
      class="new-session"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(undefined);
        try {
          const { session } = await client.start({ message });
          location.hash = sessionHref(session);
        } catch (failure) {
          setError(failure);
        }
      }}
    >
      <label for="first-message">New session: first message</label>
      <textarea
        id="first-message"
        rows={2}
        required
        value={message}
        onInput={(event) => setMessage(event.currentTarget.value)}
      />
      <button type="submit">Start session</button>
      <ErrorNote error={error} />
    </form>
  );
}
