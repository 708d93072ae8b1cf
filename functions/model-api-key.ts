import { secretText } from './secret-text.js';

/**
 * The model provider's API key, read once from Secrets Manager when the deployment names a secret
 * (the construct's `modelApiKey`); otherwise `undefined`, and the provider's SDK reads its own
 * variable. The secret's value is the key itself, as plain text.
 */
export async function modelApiKey(secretId: string | undefined): Promise<string | undefined> {
  if (secretId === undefined) return undefined;
  return secretText(secretId, 'API key');
}
