import { useState } from 'preact/hooks';

/** Asks for the name to sign in as (`agentstep serve --auth dev` takes any name as the tenant). */
export function SignInForm({ onSignIn }: { onSignIn: (name: string) => void }) {
  const [name, setName] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim() !== '') onSignIn(name.trim());
      }}
    >
      <p>The API asks who you are.</p>
      <label>
        Sign in as
        <input name="name" value={name} onInput={(event) => setName(event.currentTarget.value)} required />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}
