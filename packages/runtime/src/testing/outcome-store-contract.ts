import { randomUUID } from 'node:crypto';
import type { ToolOutcome } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import type { OutcomeStore } from '../outcomes/outcome-store.js';

const success = (content: unknown): ToolOutcome => ({ tool: 'echo', status: 'success', content });

/** The behaviour every {@link OutcomeStore} adapter must have; each test uses its own session. */
export function describeOutcomeStoreContract(adapter: string, createStore: () => OutcomeStore): void {
  describe(`OutcomeStore contract: ${adapter}`, () => {
    it('B4 stores a call outcome once: the first one wins and is returned to every later put', async () => {
      const store = createStore();
      const call = { session: `s-${randomUUID()}`, batch: 'b1', position: 0 };
      expect(await store.put(call, success('first'))).toEqual(success('first'));
      expect(await store.put(call, success('second delivery'))).toEqual(success('first'));
      expect(await store.get(call)).toEqual(success('first'));
    });

    it('B4 concurrent puts for one call all return the same stored outcome', async () => {
      const store = createStore();
      const call = { session: `s-${randomUUID()}`, batch: 'b1', position: 3 };
      const results = await Promise.all([1, 2, 3, 4].map((attempt) => store.put(call, success(attempt))));
      expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
      expect(await store.get(call)).toEqual(results[0]);
    });

    it('lists a batch in position order with holes where no outcome is stored yet', async () => {
      const store = createStore();
      const session = `s-${randomUUID()}`;
      await store.put({ session, batch: 'b1', position: 2 }, success('c'));
      await store.put(
        { session, batch: 'b1', position: 0 },
        { tool: 'fail', status: 'failure', content: 'boom' },
      );
      await store.put({ session, batch: 'b10', position: 1 }, success('another batch'));
      expect(await store.list(session, 'b1', 3)).toEqual([
        { tool: 'fail', status: 'failure', content: 'boom' },
        undefined,
        success('c'),
      ]);
      expect(await store.get({ session, batch: 'b1', position: 1 })).toBeUndefined();
    });

    it('0031 marks a call started once: only the first of concurrent marks wins, apart from its outcome', async () => {
      const store = createStore();
      const call = { session: `s-${randomUUID()}`, batch: 'b1', position: 1 };
      expect(await store.started(call)).toBe(false);
      const marks = await Promise.all([1, 2, 3, 4].map(() => store.markStarted(call)));
      expect(marks.filter(Boolean)).toHaveLength(1);
      expect(await store.markStarted(call)).toBe(false);
      expect(await store.started(call)).toBe(true);
      expect(await store.started({ ...call, position: 0 })).toBe(false);
      // A mark is not an outcome: the batch still lists none, and the first put still wins.
      expect(await store.list(call.session, 'b1', 2)).toEqual([undefined, undefined]);
      expect(await store.put(call, success('after the mark'))).toEqual(success('after the mark'));
    });

    it('B6 stores an output larger than a DynamoDB item whole', async () => {
      const store = createStore();
      const call = { session: `s-${randomUUID()}`, batch: 'b1', position: 0 };
      const big = success('x🙂'.repeat(400_000));
      await store.put(call, big);
      expect(await store.get(call)).toEqual(big);
      expect(await store.list(call.session, 'b1', 1)).toEqual([big]);
    });
  });
}
