import type { SecretLookup } from './resolve-headers.js';

/**
 * The value of the secret `name` through `secretOf`. Throws, naming `user` (what needs it) and the
 * secret, when it has no value.
 */
export async function requiredSecret(secretOf: SecretLookup, name: string, user: string): Promise<string> {
  const value = await secretOf(name);
  if (value === undefined)
    throw new Error(
      `${user} needs the secret "${name}", which has no value: set it (an environment variable locally, a Secrets Manager secret when deployed).`,
    );
  return value;
}
