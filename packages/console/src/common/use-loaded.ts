import { type Inputs, useEffect, useState } from 'preact/hooks';

/**
 * A value read from the API: `initial` until `load` answers, read again whenever `inputs` change;
 * an answer that comes after the inputs changed (or the component left) is dropped.
 */
export function useLoaded<T>(
  load: () => Promise<T>,
  initial: T,
  inputs: Inputs,
): { value: T; error: unknown } {
  const [value, setValue] = useState<T>(initial);
  const [error, setError] = useState<unknown>();
  // The caller names what the value depends on.
  useEffect(() => {
    let current = true;
    load().then(
      (loaded) => current && setValue(loaded),
      (failure: unknown) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, inputs);
  return { value, error };
}
