import { ceilingReached, reachedPeriod, spendLimits, tenantTag } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';

/**
 * Refuses a turn of a tenant whose spend has reached its ceiling (decision 0043): 429
 * `TenantCeilingReached`, with `Retry-After` at the end of the period whose ceiling it reached.
 * Nothing is refused without `tenantSpend` and `tenantControls`.
 */
export async function refuseOverCeiling(
  deps: Pick<ApiDeps, 'tenantSpend' | 'tenantControls' | 'tenantCeiling' | 'clock'>,
  tenant: string,
): Promise<void> {
  const { tenantSpend, tenantControls } = deps;
  if (tenantSpend === undefined || tenantControls === undefined) return;
  const tag = tenantTag(tenant);
  const limits = await spendLimits(tag, {
    tenantControls,
    ...(deps.tenantCeiling ? { tenantCeiling: deps.tenantCeiling } : {}),
  });
  if (Object.keys(limits).length === 0) return;
  const now = deps.clock.now();
  const reached = reachedPeriod(await tenantSpend.spent(tag, now), limits, now);
  if (reached === undefined) return;
  const message = ceilingReached(reached.period, limits, reached.resetsAt);
  const retryAfterSeconds = Math.max(1, Math.ceil((reached.resetsAt - now) / 1000));
  throw new ApiError(429, 'TenantCeilingReached', `No turn starts: ${message}`, undefined, retryAfterSeconds);
}
