import { useState } from 'preact/hooks';

/** A box for the session's next message; cleared once `onSend` resolved. */
export function MessageBox({
  onSend,
  disabled,
}: {
  onSend: (message: string) => Promise<boolean>;
  disabled: boolean;
}) {
  const [message, setMessage] = useState('');
  return (
    <form
      class="message-box"
      onSubmit={async (event) => {
        event.preventDefault();
        if (message.trim() !== '' && (await onSend(message))) setMessage('');
      }}
    >
      <label for="next-message">Next message</label>
      <textarea
        id="next-message"
        rows={3}
        value={message}
        onInput={(event) => setMessage(event.currentTarget.value)}
      />
      <button type="submit" disabled={disabled}>
        Send
      </button>
    </form>
  );
}
