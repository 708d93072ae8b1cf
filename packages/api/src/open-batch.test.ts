import type { PersistedEvent, StoredEvent, WireEventOf } from '@agentstep/protocol';
import { InMemoryOutcomeStore } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { OpenBatch } from './open-batch.js';

const SESSION = 's';
const at = (seq: number, event: PersistedEvent, batch?: string, position?: number): StoredEvent => ({
  session: SESSION,
  seq,
  event,
  ...(batch === undefined ? {} : { batch, position: position ?? 0 }),
});
const call = (seq: number, batch: string, position: number) =>
  at(seq, { type: 'call', content: '{"name":"echo","args":{}}', timestamp: 1 }, batch, position);
const approval = (seq: number, batch: string, payload: WireEventOf<'approval'>['payload']) =>
  at(seq, { type: 'approval', payload, timestamp: 1 }, batch);
const result = (seq: number, batch: string) =>
  at(
    seq,
    {
      type: 'result',
      content: '[]',
      payload: { tools_executed: 0, success_count: 0, failure_count: 0 },
      timestamp: 1,
    },
    batch,
  );

/** A store holding `echo`'s outcome `content` at each of `positions` of batch `batch`. */
async function storeWith(batch: string, outcomes: Record<number, string>) {
  const store = new InMemoryOutcomeStore();
  for (const [position, content] of Object.entries(outcomes))
    await store.put(
      { session: SESSION, batch, position: Number(position) },
      { tool: 'echo', status: 'success', content, ms: 5 },
    );
  return store;
}

describe('OpenBatch', () => {
  it('hands on each stored outcome of the open batch once, as the result will hold it, with how long it ran', async () => {
    const batch = new OpenBatch();
    batch.see([call(1, 't.1', 0), call(2, 't.1', 1)]);
    const store = await storeWith('t.1', { 1: 'b' });
    expect(batch.take(await batch.read(store, SESSION))).toEqual([
      {
        type: 'call_outcome',
        batch: 't.1',
        position: 1,
        tool: 'echo',
        status: 'success',
        content: 'b',
        ms: 5,
      },
    ]);
    expect(batch.underway).toBe(true);
    await store.put(
      { session: SESSION, batch: 't.1', position: 0 },
      { tool: 'echo', status: 'failure', content: 'no' },
    );
    expect(batch.take(await batch.read(store, SESSION))).toEqual([
      { type: 'call_outcome', batch: 't.1', position: 0, tool: 'echo', status: 'failure', content: 'no' },
    ]);
    expect(batch.underway).toBe(false);
    expect(await batch.read(store, SESSION)).toEqual([]);
  });

  it('reads no call waiting for a person or refused one, and is not underway for them', async () => {
    const batch = new OpenBatch();
    batch.see([
      call(1, 't.1', 0),
      call(2, 't.1', 1),
      call(3, 't.1', 2),
      approval(4, 't.1', { id: 't.1.0', index: 0, status: 'requested' }),
      approval(5, 't.1', { id: 't.1.1', index: 1, status: 'requested' }),
      approval(6, 't.1', { id: 't.1.1', index: 1, status: 'denied', by: 'ann' }),
    ]);
    expect(batch.underway).toBe(true);
    const store = await storeWith('t.1', { 0: 'never', 1: 'denied', 2: 'c' });
    expect((await batch.read(store, SESSION)).map(({ position }) => position)).toEqual([2]);
    batch.take(await batch.read(store, SESSION));
    expect(batch.underway).toBe(false);
    batch.see([approval(7, 't.1', { id: 't.1.0', index: 0, status: 'approved', by: 'ann' })]);
    expect(batch.underway).toBe(true);
  });

  it('hands nothing on of a call refused after its outcome was read', async () => {
    const batch = new OpenBatch();
    batch.see([call(1, 't.1', 0)]);
    const read = await batch.read(await storeWith('t.1', { 0: 'denied' }), SESSION);
    batch.see([
      approval(2, 't.1', { id: 't.1.0', index: 0, status: 'requested' }),
      approval(3, 't.1', { id: 't.1.0', index: 0, status: 'denied', by: 'ann' }),
    ]);
    expect(batch.take(read)).toEqual([]);
    expect(batch.underway).toBe(false);
  });

  it('hands nothing on of a batch whose result was logged after the outcomes were read, nor after its turn ended', async () => {
    const batch = new OpenBatch();
    batch.see([call(1, 't.1', 0)]);
    const read = await batch.read(await storeWith('t.1', { 0: 'a' }), SESSION);
    batch.see([result(2, 't.1')]);
    expect(batch.take(read)).toEqual([]);
    expect(batch.underway).toBe(false);
    const next = new OpenBatch();
    next.see([
      call(1, 't.1', 0),
      at(2, {
        type: 'turn_end',
        content: 'Stopped.',
        payload: { turn: 't', status: 'cancelled' },
        timestamp: 1,
      }),
    ]);
    expect(next.underway).toBe(false);
    expect(await next.read(await storeWith('t.1', { 0: 'a' }), SESSION)).toEqual([]);
  });

  it("follows the newest batch: an earlier batch's outcomes are not its own", async () => {
    const batch = new OpenBatch();
    batch.see([call(1, 't.1', 0), result(2, 't.1'), call(3, 't.2', 0), call(4, 't.2', 1)]);
    const store = await storeWith('t.1', { 0: 'old' });
    await store.put(
      { session: SESSION, batch: 't.2', position: 1 },
      { tool: 'echo', status: 'success', content: 'new' },
    );
    expect(batch.take(await batch.read(store, SESSION))).toEqual([
      { type: 'call_outcome', batch: 't.2', position: 1, tool: 'echo', status: 'success', content: 'new' },
    ]);
  });
});
