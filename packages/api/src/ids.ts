import { createHash } from 'node:crypto';
import { sessionIdSchema } from '@agentstep/protocol';
import { type IdSource, randomIds } from '@agentstep/runtime';

/** The longest session id a tenant sees (the store adds a 17-character tenant tag). */
export const MAX_PUBLIC_SESSION_LENGTH = 100;

/** A session id as a tenant names it: a session id no longer than {@link MAX_PUBLIC_SESSION_LENGTH}. */
export const publicSessionIdSchema = sessionIdSchema.max(MAX_PUBLIC_SESSION_LENGTH);

/** Whether `id` can name a tenant's session (or workflow run). */
export function isPublicSessionId(id: string): boolean {
  return publicSessionIdSchema.safeParse(id).success;
}

/**
 * Where a new turn's ids come from: random, or derived from the request's `Idempotency-Key`, so a
 * retried request names the same turn (and, for a new session, the same session).
 */
export function idsFor(idempotencyKey: string | undefined, scope: string): IdSource {
  if (idempotencyKey === undefined) return randomIds;
  const digest = createHash('sha256').update(`${scope}\n${idempotencyKey}`).digest('hex');
  return { session: () => `s-${digest.slice(0, 16)}`, turn: () => `t-${digest.slice(16, 32)}` };
}
