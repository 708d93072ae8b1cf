import { tenantTagOf } from '../requests/stored-session.js';
import { EVERY_TENANT, type Suspension, type TenantControl, type TenantControls } from './tenant-controls.js';

/** A suspension in force for a tenant: its own, or the agent-wide one (`every`). */
export interface SuspensionInForce extends Suspension {
  every: boolean;
}

/** A tenant's own controls, and the suspension in force for it, if any. */
export interface ControlsInForce {
  own: TenantControl;
  suspension: SuspensionInForce | undefined;
}

/**
 * Tenant `tag`'s own controls and the suspension that keeps it from running turns (the agent-wide
 * one first), reading each item once.
 */
export async function controlsInForce(controls: TenantControls, tag: string): Promise<ControlsInForce> {
  const [every, own] = await Promise.all([controls.get(EVERY_TENANT), controls.get(tag)]);
  const suspension =
    every.suspended !== undefined
      ? { ...every.suspended, every: true }
      : own.suspended === undefined
        ? undefined
        : { ...own.suspended, every: false };
  return { own, suspension };
}

/** The suspension that keeps tenant `tag` from running turns, if any: the agent-wide one first. */
export async function suspensionOf(
  controls: TenantControls,
  tag: string,
): Promise<SuspensionInForce | undefined> {
  return (await controlsInForce(controls, tag)).suspension;
}

/**
 * Whether the tenant of stored session `session` is suspended; a session of no tenant (a trigger's,
 * a parent workflow's) is when every tenant is.
 */
export async function sessionSuspended(session: string, controls: TenantControls): Promise<boolean> {
  return (await suspensionOf(controls, tenantTagOf(session) ?? EVERY_TENANT)) !== undefined;
}
