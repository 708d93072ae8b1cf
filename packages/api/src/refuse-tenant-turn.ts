import { tenantRefusal } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';

/** The status each refusal answers with. */
const STATUS = { TenantSuspended: 403, TenantCeilingReached: 429 } as const;

/**
 * Refuses a new turn (or workflow run) of a tenant that may start none: `403 TenantSuspended`
 * (decision 0041), or `429 TenantCeilingReached` with `Retry-After` at the end of the period whose
 * ceiling it reached (decision 0043). Nothing is refused without `tenantControls`.
 */
export async function refuseTenantTurn(
  deps: Pick<ApiDeps, 'tenantSpend' | 'tenantControls' | 'tenantCeiling' | 'clock'>,
  tenant: string,
): Promise<void> {
  const refusal = await tenantRefusal(tenant, deps);
  if (refusal === undefined) return;
  const retryAfter = 'retryAfterSeconds' in refusal ? refusal.retryAfterSeconds : undefined;
  throw new ApiError(STATUS[refusal.code], refusal.code, refusal.message, undefined, retryAfter);
}
