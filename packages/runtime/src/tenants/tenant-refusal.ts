import type { Clock } from '../clock/clock.js';
import { tenantTag } from '../requests/stored-session.js';
import { ceilingReached, reachedPeriod, tenantLimits } from './step-ceiling.js';
import { controlsInForce } from './suspension-of.js';
import type { Ceiling, TenantControls } from './tenant-controls.js';
import { SPEND_UNITS, type TenantSpend } from './tenant-spend.js';

/**
 * Why a tenant's new turn may not start: it is suspended (decision 0041), or it reached its spend
 * ceiling (decision 0043), with the seconds until the period whose ceiling it reached ends.
 */
export type TenantRefusal =
  | { code: 'TenantSuspended'; message: string }
  | { code: 'TenantCeilingReached'; message: string; retryAfterSeconds: number };

/** What decides a tenant's refusal; without `tenantControls` nothing is refused. */
export interface TenantRefusalDeps {
  tenantControls?: TenantControls;
  /** Without it, no tenant is refused for its spend. */
  tenantSpend?: TenantSpend;
  /** Every tenant's ceiling, unless an operator set the tenant one of its own. @default none */
  tenantCeiling?: Ceiling;
  clock: Clock;
}

/**
 * Why tenant `tenant` (its name, as the API knows it) may start no turn now, if it may not: its
 * suspension or the agent-wide one, then a ceiling it reached. Reads its controls once.
 */
export async function tenantRefusal(
  tenant: string,
  deps: TenantRefusalDeps,
): Promise<TenantRefusal | undefined> {
  const { tenantControls, tenantSpend } = deps;
  if (tenantControls === undefined) return undefined;
  const tag = tenantTag(tenant);
  const { own, suspension } = await controlsInForce(tenantControls, tag);
  if (suspension !== undefined) {
    const who = suspension.every ? 'Every tenant of this agent is' : `Tenant ${tenant} is`;
    const why = suspension.reason === undefined ? '' : ` (${suspension.reason})`;
    const since = new Date(suspension.since).toISOString();
    return {
      code: 'TenantSuspended',
      message: `${who} suspended since ${since}${why}: no turn starts until an operator resumes it.`,
    };
  }
  if (tenantSpend === undefined) return undefined;
  const limits = tenantLimits(own.ceiling, deps.tenantCeiling);
  const now = deps.clock.now();
  for (const unit of SPEND_UNITS) {
    if (Object.keys(limits[unit]).length === 0) continue;
    const reached = reachedPeriod(await tenantSpend.spent(tag, unit, now), limits[unit], now);
    if (reached === undefined) continue;
    return {
      code: 'TenantCeilingReached',
      message: `No turn starts: ${ceilingReached(unit, reached.period, limits[unit], reached.resetsAt)}`,
      retryAfterSeconds: Math.max(1, Math.ceil((reached.resetsAt - now) / 1000)),
    };
  }
  return undefined;
}
