import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * The plain-text value of a Secrets Manager secret, named by its name or ARN, trimmed: read through
 * Powertools' cache (one read per warm function within its few seconds). `what` says what the
 * secret should hold (`API key`, …) in the errors: one that names the secret when it cannot be
 * read (missing, or not granted), one when it holds no text.
 */
export async function secretText(secretId: string, what: string): Promise<string> {
  let value: unknown;
  try {
    value = await getSecret(secretId);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    throw new Error(
      `Could not read the secret ${secretId} (the ${what}) from Secrets Manager: ${reason}. Create it in this function's account and region, or check that the deployment grants this function read access to it.`,
      { cause: error },
    );
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`The secret ${secretId} holds no ${what}: store the ${what} as its plain-text value.`);
  }
  return value.trim();
}
