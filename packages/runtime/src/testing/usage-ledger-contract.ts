import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StepUsage } from '../usage/step-usage.js';
import type { UsageLedger } from '../usage/usage-ledger.js';

const entry = (session: string, batch: string, at: number, costUsd?: number): StepUsage => ({
  session,
  batch,
  model: 'openai:gpt-4o',
  at,
  latencyMs: 120,
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 60, cacheWriteTokens: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
});

/** The behaviour every {@link UsageLedger} adapter must have; each test uses its own session. */
export function describeUsageLedgerContract(adapter: string, createLedger: () => UsageLedger): void {
  describe(`UsageLedger contract: ${adapter}`, () => {
    it('lists a session’s entries oldest first, whatever order they were recorded in', async () => {
      const ledger = createLedger();
      const session = `s-${randomUUID()}`;
      await ledger.record(entry(session, 'b2', 2_000, 0.5));
      await ledger.record(entry(session, 'b1', 1_000));
      await ledger.record(entry(`other-${session}`, 'b1', 1_500));
      expect(await ledger.list(session)).toEqual([
        entry(session, 'b1', 1_000),
        entry(session, 'b2', 2_000, 0.5),
      ]);
    });

    it('keeps both entries of a step recorded twice (a re-run spends twice)', async () => {
      const ledger = createLedger();
      const session = `s-${randomUUID()}`;
      await Promise.all([
        ledger.record(entry(session, 'b1', 1_000)),
        ledger.record(entry(session, 'b1', 1_000)),
      ]);
      expect(await ledger.list(session)).toHaveLength(2);
    });

    it('lists nothing for a session without entries', async () => {
      expect(await createLedger().list(`s-${randomUUID()}`)).toEqual([]);
    });
  });
}
