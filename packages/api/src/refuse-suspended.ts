import { suspensionOf, tenantTag } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';

/**
 * Refuses a turn of a suspended tenant (decision 0041): 403 `TenantSuspended`, saying since when,
 * why and by which switch (the tenant's own, or the agent-wide one). Nothing is refused without
 * `tenantControls`.
 */
export async function refuseSuspended(deps: Pick<ApiDeps, 'tenantControls'>, tenant: string): Promise<void> {
  if (deps.tenantControls === undefined) return;
  const suspension = await suspensionOf(deps.tenantControls, tenantTag(tenant));
  if (suspension === undefined) return;
  const who = suspension.every ? 'Every tenant of this agent is' : `Tenant ${tenant} is`;
  const why = suspension.reason === undefined ? '' : ` (${suspension.reason})`;
  throw new ApiError(
    403,
    'TenantSuspended',
    `${who} suspended since ${new Date(suspension.since).toISOString()}${why}: no turn starts until an operator resumes it.`,
  );
}
