import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * The model provider's API key, read once from Secrets Manager when the deployment names a secret
 * (the construct's `modelApiKey`); otherwise `undefined`, and the provider's SDK reads its own
 * variable. The secret's value is the key itself, as plain text.
 */
export async function modelApiKey(secretId: string | undefined): Promise<string | undefined> {
  if (secretId === undefined) return undefined;
  const value = await getSecret(secretId);
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`The secret ${secretId} holds no API key: store the key as its plain-text value.`);
  }
  return value.trim();
}
