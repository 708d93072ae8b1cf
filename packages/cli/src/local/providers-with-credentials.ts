import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Provider } from '@agentstep/runtime';

/** Which model providers this machine has credentials for, and what was looked for. */
export interface CredentialsFound {
  /** The names of the providers with credentials, in the registry's order. */
  found: string[];
  /** What was looked for, provider by provider: a key variable, or `AWS credentials`. */
  sought: string[];
}

/**
 * The model providers this machine has credentials for, by what their SDKs read: a provider's key
 * variable, and for Bedrock (which has none) the AWS key variables, a profile, or a shared
 * credentials file. Providers that take no key and are not Bedrock need none, and are not listed.
 */
export function providersWithCredentials(
  providers: readonly Provider[],
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): CredentialsFound {
  const result: CredentialsFound = { found: [], sought: [] };
  for (const { name, keyVariable } of providers) {
    if (keyVariable !== undefined) {
      result.sought.push(keyVariable);
      if (env[keyVariable]) result.found.push(name);
    } else if (name === 'bedrock') {
      result.sought.push('AWS credentials');
      if (awsCredentials(env, home)) result.found.push(name);
    }
  }
  return result;
}

function awsCredentials(env: NodeJS.ProcessEnv, home: string): boolean {
  return Boolean(
    env.AWS_ACCESS_KEY_ID ||
      env.AWS_PROFILE ||
      env.AWS_WEB_IDENTITY_TOKEN_FILE ||
      existsSync(join(home, '.aws', 'credentials')),
  );
}
