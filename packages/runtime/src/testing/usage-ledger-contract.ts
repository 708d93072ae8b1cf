import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppendNote, EventLog, NewEvent } from '../event-log/event-log.js';
import { modelStepKey } from '../usage/model-step-key.js';
import type { StepSpend } from '../usage/step-usage.js';
import type { UsageLedger } from '../usage/usage-ledger.js';

const spend = (at: number, costUsd?: number): StepSpend => ({
  model: 'openai:gpt-4o',
  at,
  latencyMs: 120,
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 60, cacheWriteTokens: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
});
const respond = (batch: string): NewEvent => ({
  batch,
  event: { type: 'respond', content: 'Done.', timestamp: 1 },
});

/** A usage ledger and the event log whose step notes it reads. */
export interface LedgerOverLog {
  log: EventLog;
  usage: UsageLedger;
}

/**
 * The behaviour every {@link UsageLedger} adapter must have: a view of the notes of the model-step
 * appends in the log it reads (decision 0013). Each test uses its own session.
 */
export function describeUsageLedgerContract(adapter: string, create: () => LedgerOverLog): void {
  describe(`UsageLedger contract: ${adapter}`, () => {
    /** A fresh session held by its turn, and a function that appends one model step to it. */
    async function open(log: EventLog) {
      const session = `s-${randomUUID()}`;
      await log.acquireTurn(session, 't');
      const step = (batch: string, note: AppendNote | undefined, events: NewEvent[] = [respond(batch)]) =>
        log.append({ session, turn: 't', key: modelStepKey(batch), events, ...(note ? { note } : {}) });
      return { session, step };
    }

    it('lists one entry per model step, in log order, with the session and the batch its key names', async () => {
      const { log, usage } = create();
      const { session, step } = await open(log);
      await log.append({ session, turn: 't', key: 'user:1', events: [respond('u')], note: { other: 1 } });
      await step('t.2', spend(2_000, 0.5));
      await step('t.10', spend(1_000), []);
      await step('t.11', undefined);
      expect(await usage.list(session)).toEqual([
        { session, batch: 't.2', ...spend(2_000, 0.5) },
        { session, batch: 't.10', ...spend(1_000) },
      ]);
    });

    it('counts a step delivered twice once, as its first note says', async () => {
      const { log, usage } = create();
      const { session, step } = await open(log);
      await step('t.1', spend(1_000), []);
      await step('t.1', spend(5_000, 9), []);
      expect(await usage.list(session)).toEqual([{ session, batch: 't.1', ...spend(1_000) }]);
    });

    it('keeps only what a note says the step spent', async () => {
      const { log, usage } = create();
      const { session, step } = await open(log);
      await step('t.1', { ...spend(1_000), batchFailure: 'The <execute> body is not valid JSON.' }, []);
      expect(await usage.list(session)).toEqual([{ session, batch: 't.1', ...spend(1_000) }]);
    });

    it('lists nothing for a session without model steps', async () => {
      expect(await create().usage.list(`s-${randomUUID()}`)).toEqual([]);
    });
  });
}
