import { describe, expect, it } from 'vitest';
import { describeTenantControlsContract } from '../testing/tenant-controls-contract.js';
import { RecentTenantControls } from './recent-tenant-controls.js';
import { InMemoryTenantControls, type TenantControls } from './tenant-controls.js';

describeTenantControlsContract(
  'RecentTenantControls',
  () => new RecentTenantControls(new InMemoryTenantControls(), { now: () => 0 }),
);

describe('RecentTenantControls', () => {
  it('reads a tenant once while what it read is fresh, and again after', async () => {
    let now = 0;
    let reads = 0;
    const inner = new InMemoryTenantControls();
    const counted: TenantControls = {
      get: (tag) => {
        reads++;
        return inner.get(tag);
      },
      suspend: (tag, suspension) => inner.suspend(tag, suspension),
      resume: (tag) => inner.resume(tag),
      setCeiling: (tag, ceiling) => inner.setCeiling(tag, ceiling),
    };
    const controls = new RecentTenantControls(counted, { now: () => now }, 1_000);
    await controls.get('t');
    await controls.get('t');
    expect(reads).toBe(1);
    // Another process suspends the tenant: this one sees it once what it read is stale.
    await inner.suspend('t', { since: 1 });
    expect(await controls.get('t')).toEqual({});
    now = 1_000;
    expect(await controls.get('t')).toEqual({ suspended: { since: 1 } });
    expect(reads).toBe(2);
  });
});
