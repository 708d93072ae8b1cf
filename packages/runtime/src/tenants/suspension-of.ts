import { tenantTagOf } from '../requests/stored-session.js';
import { EVERY_TENANT, type Suspension, type TenantControls } from './tenant-controls.js';

/** A suspension in force for a tenant: its own, or the agent-wide one (`every`). */
export interface SuspensionInForce extends Suspension {
  every: boolean;
}

/** The suspension that keeps tenant `tag` from running turns, if any: the agent-wide one first. */
export async function suspensionOf(
  controls: TenantControls,
  tag: string,
): Promise<SuspensionInForce | undefined> {
  const [every, own] = await Promise.all([controls.get(EVERY_TENANT), controls.get(tag)]);
  if (every.suspended !== undefined) return { ...every.suspended, every: true };
  return own.suspended === undefined ? undefined : { ...own.suspended, every: false };
}

/**
 * Whether the tenant of stored session `session` is suspended; a session of no tenant (a trigger's,
 * a parent workflow's) is when every tenant is.
 */
export async function sessionSuspended(session: string, controls: TenantControls): Promise<boolean> {
  return (await suspensionOf(controls, tenantTagOf(session) ?? EVERY_TENANT)) !== undefined;
}
