import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { suspensionOf } from '../tenants/suspension-of.js';
import { EVERY_TENANT, type TenantControls } from '../tenants/tenant-controls.js';

/** The contract every {@link TenantControls} adapter keeps, run against `create`. */
export function describeTenantControlsContract(name: string, create: () => TenantControls): void {
  describe(`${name}: the TenantControls contract`, () => {
    const tag = () => `tag-${randomUUID()}`;

    it('suspends a tenant, with or without a reason, and resumes it', async () => {
      const controls = create();
      const [ann, bob] = [tag(), tag()];
      expect(await controls.get(ann)).toEqual({});
      await controls.suspend(ann, { since: 1_000, reason: 'runaway spend' });
      expect(await controls.get(ann)).toEqual({ suspended: { since: 1_000, reason: 'runaway spend' } });
      expect(await controls.get(bob)).toEqual({});
      await controls.suspend(ann, { since: 2_000 });
      expect(await controls.get(ann)).toEqual({ suspended: { since: 2_000 } });
      await controls.resume(ann);
      await controls.resume(bob);
      expect(await controls.get(ann)).toEqual({});
      expect(await controls.get(bob)).toEqual({});
    });

    it('keeps a tenant’s own ceiling apart from its suspension, and drops it', async () => {
      const controls = create();
      const ann = tag();
      await controls.setCeiling(ann, { usdPerDay: 0.05, usdPerMonth: 1, tokensPerDay: 50_000 });
      await controls.suspend(ann, { since: 3 });
      expect(await controls.get(ann)).toEqual({
        suspended: { since: 3 },
        ceiling: { usdPerDay: 0.05, usdPerMonth: 1, tokensPerDay: 50_000 },
      });
      await controls.resume(ann);
      const every = { usdPerDay: 1, usdPerMonth: 2, tokensPerDay: 3, tokensPerMonth: 4 };
      await controls.setCeiling(ann, every);
      expect(await controls.get(ann)).toEqual({ ceiling: every });
      await controls.setCeiling(ann, { usdPerMonth: 2, tokensPerMonth: 9 });
      expect(await controls.get(ann)).toEqual({ ceiling: { usdPerMonth: 2, tokensPerMonth: 9 } });
      await controls.setCeiling(ann, undefined);
      expect(await controls.get(ann)).toEqual({});
    });

    it('holds the agent-wide switch for every tenant', async () => {
      const controls = create();
      const ann = tag();
      await controls.suspend(ann, { since: 1 });
      expect(await suspensionOf(controls, ann)).toEqual({ since: 1, every: false });
      await controls.suspend(EVERY_TENANT, { since: 2, reason: 'incident' });
      expect(await suspensionOf(controls, tag())).toEqual({ since: 2, reason: 'incident', every: true });
      await controls.resume(EVERY_TENANT);
      expect(await suspensionOf(controls, tag())).toBeUndefined();
    });
  });
}
