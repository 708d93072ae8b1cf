import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TenantSpend } from '../tenants/tenant-spend.js';

const AT = Date.UTC(2026, 10, 29, 15, 0);

/** The contract every {@link TenantSpend} adapter keeps, run against `create`. */
export function describeTenantSpendContract(name: string, create: () => TenantSpend): void {
  describe(`${name}: the TenantSpend contract`, () => {
    const tag = () => `tag-${randomUUID()}`;

    it('reserves while the limits hold, refuses past them with when the period ends, and settles', async () => {
      const spend = create();
      const ann = tag();
      const limits = { day: 100, month: 150 };
      const first = await spend.reserve(ann, 60, limits, AT);
      expect(first).toEqual({ tag: ann, periods: { day: '2026-11-29', month: '2026-11' }, micros: 60 });
      expect(await spend.reserve(ann, 50, limits, AT)).toEqual({
        refused: 'day',
        resetsAt: Date.UTC(2026, 10, 30),
      });
      if ('refused' in first) throw new Error('the first reservation was refused');
      await spend.settle(first, 20);
      expect(await spend.spent(ann, AT)).toEqual({ day: 20, month: 20, reached: { day: 100 } });
      const tomorrow = AT + 24 * 3_600_000;
      expect(await spend.reserve(ann, 100, limits, tomorrow)).toMatchObject({ micros: 100 });
      expect(await spend.reserve(ann, 40, limits, tomorrow)).toEqual({
        refused: 'day',
        resetsAt: Date.UTC(2026, 11, 1),
      });
      expect(await spend.reserve(ann, 40, { month: 150 }, tomorrow)).toEqual({
        refused: 'month',
        resetsAt: Date.UTC(2026, 11, 1),
      });
      expect(await spend.spent(tag(), AT)).toEqual({ day: 0, month: 0, reached: {} });
      expect((await spend.spent(ann, tomorrow)).reached).toEqual({ day: 100, month: 150 });
    });

    it('lets concurrent reservations of one tenant together stay within its limit', async () => {
      const spend = create();
      const ann = tag();
      const tries = await Promise.all(
        Array.from({ length: 20 }, () => spend.reserve(ann, 10, { day: 55 }, AT)),
      );
      expect(tries.filter((tried) => !('refused' in tried))).toHaveLength(5);
      expect((await spend.spent(ann, AT)).day).toBe(50);
    });
  });
}
