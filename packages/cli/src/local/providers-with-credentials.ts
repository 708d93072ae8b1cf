import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The model providers this machine has credentials for, by what their SDKs read: the API key
 * variables, and for Bedrock the AWS key variables, a profile, or a shared credentials file.
 */
export function providersWithCredentials(env: NodeJS.ProcessEnv = process.env, home = homedir()): string[] {
  const found: string[] = [];
  const aws =
    env.AWS_ACCESS_KEY_ID ||
    env.AWS_PROFILE ||
    env.AWS_WEB_IDENTITY_TOKEN_FILE ||
    existsSync(join(home, '.aws', 'credentials'));
  if (aws) found.push('bedrock');
  if (env.OPENAI_API_KEY) found.push('openai');
  if (env.ANTHROPIC_API_KEY) found.push('anthropic');
  return found;
}
