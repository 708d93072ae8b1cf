import * as z from 'zod/mini';
import { CONSOLE_CONFIG_FILE, type ConsoleConfig, consoleConfigSchema } from './console-config.js';

/**
 * The console's configuration from the `config.json` its host serves beside the page. A host that
 * serves none (the built files copied anywhere) gets the dev sign-in: a name as the bearer token.
 */
export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch(CONSOLE_CONFIG_FILE, { cache: 'no-cache' });
  if (response.status === 404) return { signIn: { kind: 'name' } };
  if (!response.ok) throw new Error(`${CONSOLE_CONFIG_FILE} answered ${response.status}: reload the page.`);
  const parsed = consoleConfigSchema.safeParse(await response.json());
  if (!parsed.success)
    throw new Error(
      `${CONSOLE_CONFIG_FILE} is not the console's configuration: ${z.prettifyError(parsed.error)}`,
    );
  return parsed.data;
}
