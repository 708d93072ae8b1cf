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
