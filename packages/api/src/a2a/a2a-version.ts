import type { Context } from 'hono';
import { A2aError } from './a2a-error.js';
import { A2A_VERSION } from './a2a-wire.js';

/**
 * Refuses a request for another A2A version than this server's (the `A2A-Version` header, or the
 * query parameter of that name): A2A reads a request without one as 0.3, which this server does
 * not speak.
 */
export function refuseOtherVersions(c: Context): void {
  const asked = c.req.header('a2a-version') ?? c.req.query('A2A-Version') ?? '0.3';
  if (asked.trim() === A2A_VERSION) return;
  throw new A2aError(
    'versionNotSupported',
    `This agent speaks A2A ${A2A_VERSION}, not ${asked}: send the header A2A-Version: ${A2A_VERSION} (a request without it is A2A 0.3).`,
  );
}
