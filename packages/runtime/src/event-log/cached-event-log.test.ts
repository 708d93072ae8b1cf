import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeEventLogContract } from '../testing/event-log-contract.js';
import { CachedEventLog } from './cached-event-log.js';
import type { NewEvent } from './event-log.js';
import { eventLogWith } from './event-log-with.js';
import { InMemoryEventLog } from './in-memory-event-log.js';

describeEventLogContract('CachedEventLog', (clock) => new CachedEventLog(new InMemoryEventLog({ clock })));

const note = (content: string): NewEvent => ({ event: { type: 'user', content, timestamp: 1 } });

/** One step of a history two processes write and read through their own caches. */
type Operation =
  | { kind: 'append'; writer: 0 | 1; count: number; size: number }
  | { kind: 'read'; reader: 0 | 1; afterSeq: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    writer: fc.constantFrom(0 as const, 1 as const),
    count: fc.integer({ min: 0, max: 4 }),
    size: fc.integer({ min: 0, max: 300 }),
  }),
  fc.record({
    kind: fc.constant('read' as const),
    reader: fc.constantFrom(0 as const, 1 as const),
    afterSeq: fc.integer({ min: 0, max: 40 }),
  }),
);

describe('CachedEventLog', () => {
  it('holds what it appended right after its prefix, as a read gives it, with no read of the log underneath', async () => {
    const inner = new InMemoryEventLog();
    const reads: number[] = [];
    const cache = new CachedEventLog(
      eventLogWith(inner, {
        read: (session, options) => {
          reads.push(options?.afterSeq ?? 0);
          return inner.read(session, options);
        },
      }),
    );
    await cache.acquireTurn('s', 't');
    await cache.append({ session: 's', turn: 't', key: 'a', events: [note('one')] });
    expect(cache.heldThrough('s', 1)).toBeUndefined();
    expect(await cache.read('s')).toEqual(await inner.read('s'));
    await cache.append({
      session: 's',
      turn: 't',
      key: 'b',
      events: [note('two'), { ...note('three'), batch: 'b1' }],
    });
    expect(cache.heldThrough('s', 3)).toEqual({ events: await inner.read('s') });
    expect(cache.heldThrough('s', 2)).toEqual({ events: (await inner.read('s')).slice(0, 2) });
    expect(cache.heldThrough('s', 4)).toBeUndefined();
    expect(reads).toEqual([0]);
  });

  it('reads a session it never read from the context start, and goes on from what it holds', async () => {
    const inner = new InMemoryEventLog();
    await inner.acquireTurn('s', 't');
    await inner.append({ session: 's', turn: 't', key: 'a', events: [note('1'), note('2'), note('3')] });
    const start = { from: 3, through: 3 };
    await inner.append({ session: 's', turn: 't', key: 'b', events: [note('4')], contextStart: start });
    const snapshots: Array<{ afterSeq?: number; fromContext?: boolean }> = [];
    const cache = new CachedEventLog(
      eventLogWith(inner, {
        snapshot: (session, options) => {
          snapshots.push({ ...options });
          return inner.snapshot(session, options);
        },
      }),
    );
    const cold = await cache.snapshot('s', { fromContext: true });
    expect(cold.events.map((stored) => stored.seq)).toEqual([3, 4]);
    expect(cold.start).toEqual(start);
    await cache.append({ session: 's', turn: 't', key: 'c', events: [note('5')] });
    expect(cache.heldThrough('s', 5)).toEqual({ events: (await inner.read('s')).slice(2), start });
    const warm = await cache.snapshot('s', { fromContext: true });
    expect(warm.events).toEqual((await inner.read('s')).slice(2));
    expect(snapshots).toEqual([{ afterSeq: 0, fromContext: true }, { afterSeq: 5 }]);
    // Before what it holds, a read goes to the log underneath.
    expect(await cache.read('s')).toEqual(await inner.read('s'));
    expect(await cache.read('s', { afterSeq: 3 })).toEqual(await inner.read('s', { afterSeq: 3 }));
  });

  it('reads exactly what the log underneath holds, whoever appended and whatever was evicted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { maxLength: 40 }),
        fc.integer({ min: 0, max: 3000 }),
        async (ops, maxChars) => {
          const inner = new InMemoryEventLog();
          const caches = [new CachedEventLog(inner, { maxChars }), new CachedEventLog(inner, { maxChars })];
          let key = 0;
          for (const op of ops) {
            if (op.kind === 'append') {
              // Each writer takes the session over from the other, as an expired lease allows.
              const turn = `turn-${op.writer}`;
              await caches[op.writer]?.acquireTurn('s', turn, { takeOver: true });
              const events = Array.from({ length: op.count }, (_, index) =>
                note(`${key}.${index}`.padEnd(op.size)),
              );
              await caches[op.writer]?.append({ session: 's', turn, key: `k${key++}`, events });
            } else {
              const cached = await caches[op.reader]?.read('s', { afterSeq: op.afterSeq });
              expect(cached).toEqual(await inner.read('s', { afterSeq: op.afterSeq }));
            }
          }
          for (const cache of caches) expect(await cache.read('s')).toEqual(await inner.read('s'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('asks the log underneath only for events after those it holds, its own appends included', async () => {
    const inner = new InMemoryEventLog();
    const asked: Array<number | undefined> = [];
    const counting = eventLogWith(inner, {
      read: (session, options) => {
        asked.push(options?.afterSeq);
        return inner.read(session, options);
      },
    });
    const cache = new CachedEventLog(counting);
    await cache.acquireTurn('s', 't');
    await cache.append({ session: 's', turn: 't', key: 'a', events: [note('one'), note('two')] });
    await cache.read('s');
    await cache.append({ session: 's', turn: 't', key: 'b', events: [note('three')] });
    expect((await cache.read('s')).map((stored) => stored.event.content)).toEqual(['one', 'two', 'three']);
    expect(asked).toEqual([0, 3]);
  });

  it('keeps only a gap-free prefix: events read past a gap are returned, not cached', async () => {
    const inner = new InMemoryEventLog();
    await inner.acquireTurn('s', 't');
    await inner.append({ session: 's', turn: 't', key: 'a', events: [note('1'), note('2'), note('3')] });
    let hideSecond = true;
    // As a query may see a later write before an earlier one is visible to it.
    const racing = eventLogWith(inner, {
      read: async (session, options) =>
        (await inner.read(session, options)).filter((stored) => !(hideSecond && stored.seq === 2)),
    });
    const cache = new CachedEventLog(racing);
    expect((await cache.read('s')).map((stored) => stored.seq)).toEqual([1, 3]);
    hideSecond = false;
    expect((await cache.read('s')).map((stored) => stored.seq)).toEqual([1, 2, 3]);
  });

  it("remembers what a key's first append left once appended or read, and asks the log underneath no more", async () => {
    const inner = new InMemoryEventLog();
    const asked: string[] = [];
    const cache = new CachedEventLog(
      eventLogWith(inner, {
        appended: (session, key) => {
          asked.push(key);
          return inner.appended(session, key);
        },
      }),
    );
    await cache.acquireTurn('s', 't');
    await cache.read('s');
    await cache.append({ session: 's', turn: 't', key: 'mine', events: [note('one')], note: { n: 1 } });
    expect(await cache.appended('s', 'mine')).toEqual(await inner.appended('s', 'mine'));
    await inner.append({ session: 's', turn: 't', key: 'theirs', events: [note('two')], note: { n: 2 } });
    expect(await cache.appended('s', 'theirs')).toEqual({ firstSeq: 2, count: 1, note: { n: 2 } });
    expect(await cache.appended('s', 'theirs')).toEqual({ firstSeq: 2, count: 1, note: { n: 2 } });
    expect(await cache.appended('s', 'none')).toBeUndefined();
    expect(await cache.appended('s', 'none')).toBeUndefined();
    expect(asked).toEqual(['theirs', 'none', 'none']);
  });

  it('hands out frozen events, so no reader can alter what the next one gets', async () => {
    const cache = new CachedEventLog(new InMemoryEventLog());
    await cache.acquireTurn('s', 't');
    await cache.append({ session: 's', turn: 't', key: 'a', events: [note('one')] });
    const [first] = await cache.read('s');
    expect(() => {
      (first as { event: { content: string } }).event.content = 'changed';
    }).toThrow(TypeError);
    expect((await cache.read('s'))[0]?.event.content).toBe('one');
  });
});
