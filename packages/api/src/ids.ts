import { createHash } from 'node:crypto';
import { type IdSource, randomIds } from '@agentstep/runtime';

/** The longest session id a tenant sees (the store adds a 17-character tenant tag). */
export const MAX_PUBLIC_SESSION_LENGTH = 100;

/**
 * Where a new turn's ids come from: random, or derived from the request's `Idempotency-Key`, so a
 * retried request names the same turn (and, for a new session, the same session).
 */
export function idsFor(idempotencyKey: string | undefined, scope: string): IdSource {
  if (idempotencyKey === undefined) return randomIds;
  const digest = createHash('sha256').update(`${scope}\n${idempotencyKey}`).digest('hex');
  return { session: () => `s-${digest.slice(0, 16)}`, turn: () => `t-${digest.slice(16, 32)}` };
}
