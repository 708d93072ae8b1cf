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
      const first = await spend.reserve(ann, 'micros', 60, limits, AT);
      expect(first).toEqual({
        tag: ann,
        unit: 'micros',
        periods: { day: '2026-11-29', month: '2026-11' },
        amount: 60,
      });
      expect(await spend.reserve(ann, 'micros', 50, limits, AT)).toEqual({
        refused: 'day',
        resetsAt: Date.UTC(2026, 10, 30),
      });
      if ('refused' in first) throw new Error('the first reservation was refused');
      await spend.settle(first, 20);
      expect(await spend.spent(ann, 'micros', AT)).toEqual({ day: 20, month: 20, reached: { day: 100 } });
      // Tokens are counted apart, with limits of their own.
      expect(await spend.spent(ann, 'tokens', AT)).toEqual({ day: 0, month: 0, reached: {} });
      const tomorrow = AT + 24 * 3_600_000;
      expect(await spend.reserve(ann, 'micros', 100, limits, tomorrow)).toMatchObject({ amount: 100 });
      expect(await spend.reserve(ann, 'micros', 40, limits, tomorrow)).toEqual({
        refused: 'day',
        resetsAt: Date.UTC(2026, 11, 1),
      });
      expect(await spend.reserve(ann, 'micros', 40, { month: 150 }, tomorrow)).toEqual({
        refused: 'month',
        resetsAt: Date.UTC(2026, 11, 1),
      });
      expect(await spend.spent(tag(), 'micros', AT)).toEqual({ day: 0, month: 0, reached: {} });
      expect((await spend.spent(ann, 'micros', tomorrow)).reached).toEqual({ day: 100, month: 150 });
    });

    it('refuses a first reservation larger than the limit, writing nothing but the limit reached', async () => {
      const spend = create();
      const ann = tag();
      expect(await spend.reserve(ann, 'tokens', 5_000, { day: 4_000 }, AT)).toEqual({
        refused: 'day',
        resetsAt: Date.UTC(2026, 10, 30),
      });
      expect(await spend.spent(ann, 'tokens', AT)).toEqual({ day: 0, month: 0, reached: { day: 4_000 } });
    });

    it.each(['micros', 'tokens'] as const)(
      'lets concurrent reservations of one tenant together stay within its limit (%s)',
      async (unit) => {
        const spend = create();
        const ann = tag();
        const tries = await Promise.all(
          Array.from({ length: 20 }, () => spend.reserve(ann, unit, 10, { day: 55 }, AT)),
        );
        expect(tries.filter((tried) => !('refused' in tried))).toHaveLength(5);
        expect((await spend.spent(ann, unit, AT)).day).toBe(50);
        const other = unit === 'micros' ? 'tokens' : 'micros';
        expect((await spend.spent(ann, other, AT)).day).toBe(0);
      },
    );
  });
}
