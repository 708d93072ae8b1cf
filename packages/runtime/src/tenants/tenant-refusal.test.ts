import { describe, expect, it } from 'vitest';
import { tenantTag } from '../requests/stored-session.js';
import { EVERY_TENANT, InMemoryTenantControls } from './tenant-controls.js';
import { tenantRefusal } from './tenant-refusal.js';
import { InMemoryTenantSpend } from './tenant-spend.js';

/** Noon, UTC: the day ends in 12 hours. */
const clock = { now: () => Date.UTC(2026, 10, 29, 12) };

function stores() {
  return { tenantControls: new InMemoryTenantControls(), tenantSpend: new InMemoryTenantSpend(), clock };
}

describe('tenantRefusal', () => {
  it('refuses nothing for a tenant within its ceiling, nor without controls', async () => {
    const deps = { ...stores(), tenantCeiling: { usdPerDay: 1 } };
    await deps.tenantSpend.reserve(tenantTag('ann'), 'micros', 500_000, {}, clock.now());
    expect(await tenantRefusal('ann', deps)).toBeUndefined();
    expect(await tenantRefusal('ann', { clock })).toBeUndefined();
  });

  it('refuses a tenant at its ceiling until the period ends, its own ceiling over the default', async () => {
    const deps = { ...stores(), tenantCeiling: { usdPerDay: 100 } };
    await deps.tenantControls.setCeiling(tenantTag('ann'), { usdPerDay: 0.5 });
    await deps.tenantSpend.reserve(tenantTag('ann'), 'micros', 500_000, {}, clock.now());
    expect(await tenantRefusal('ann', deps)).toEqual({
      code: 'TenantCeilingReached',
      message:
        "No turn starts: the tenant's ceiling of $0.5 a day is reached; it resets at 2026-11-30T00:00:00.000Z. An operator may raise it (agentstep tenants set-ceiling).",
      retryAfterSeconds: 12 * 3600,
    });
    expect(await tenantRefusal('bob', deps)).toBeUndefined();
  });

  it('names a suspension before a ceiling, the agent-wide one before the tenant’s own', async () => {
    const deps = { ...stores(), tenantCeiling: { usdPerDay: 0.1 } };
    await deps.tenantSpend.reserve(tenantTag('ann'), 'micros', 100_000, {}, clock.now());
    await deps.tenantControls.suspend(tenantTag('ann'), { since: 0, reason: 'leaked key' });
    expect(await tenantRefusal('ann', deps)).toEqual({
      code: 'TenantSuspended',
      message:
        'Tenant ann is suspended since 1970-01-01T00:00:00.000Z (leaked key): no turn starts until an operator resumes it.',
    });
    await deps.tenantControls.suspend(EVERY_TENANT, { since: 0 });
    expect((await tenantRefusal('ann', deps))?.message).toMatch(/^Every tenant of this agent is suspended/);
  });
});
