import { createHash } from 'node:crypto';

/** A tenant's tag: 16 hex characters of its name's SHA-256, which tell nothing of the name. */
export function tenantTag(tenant: string): string {
  return createHash('sha256').update(tenant).digest('hex').slice(0, 16);
}

/**
 * The session id the store keeps a tenant's session under: a tag of the tenant, then the id the
 * tenant sees. Another tenant's sessions are out of reach, and their ids tell nothing.
 */
export function storedSession(tenant: string, session: string): string {
  return `${tenantTag(tenant)}.${session}`;
}

/** The tenant tag a stored session id starts with (`storedSession`), or `undefined` for a session of no tenant. */
export function tenantTagOf(stored: string): string | undefined {
  return /^([0-9a-f]{16})\./.exec(stored)?.[1];
}

/** The session a turn result names, as the log stores it: under its tenant's tag when it has one. */
export function storedSessionOf({
  session,
  tenant,
}: {
  session: string;
  tenant?: string | undefined;
}): string {
  return tenant === undefined ? session : storedSession(tenant, session);
}
