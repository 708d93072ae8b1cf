import { setTimeout as sleep } from 'node:timers/promises';
import {
  CachedEventLog,
  eventLogWith,
  InMemoryEventLog,
  inMemoryStores,
  type NewEvent,
} from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { LogChanges } from './log-changes.js';
import { SessionFeeds } from './session-feeds.js';

const note = (content: string): NewEvent => ({ event: { type: 'user', content, timestamp: 1 } });

/** A session's log, watched for changes, that counts its reads of `s` (through a cache, with `cached`). */
async function countedFeeds(limit?: number, { cached = false } = {}) {
  const changes = new LogChanges();
  const stored = new InMemoryEventLog();
  await stored.acquireTurn('s', 't');
  const reads = { count: 0 };
  const counted = eventLogWith(stored, {
    read: (session, options) => {
      reads.count += 1;
      return stored.read(session, options);
    },
  });
  const log = changes.watch(cached ? new CachedEventLog(counted) : counted);
  const deps = { ...inMemoryStores(), log, changes, pollMs: 60_000 };
  let key = 0;
  const append = (...contents: string[]) =>
    log.append({ session: 's', turn: 't', key: `k${key++}`, events: contents.map(note) });
  return { feeds: new SessionFeeds(deps, limit === undefined ? {} : { limit }), reads, append, changes };
}

describe('SessionFeeds', () => {
  it('reads each change of a session once for all its streams, handing each what it has not taken', async () => {
    const { feeds, reads, append } = await countedFeeds();
    const one = feeds.join('s', { seq: 0, seen: 0 });
    const two = feeds.join('s', { seq: 0, seen: 0 });
    await append('a', 'b');
    await Promise.all([one.next(5_000), two.next(5_000)]);
    expect(reads.count).toBe(1);
    const contents = async (seat: typeof one) =>
      (await seat.take())?.events.map(({ event }) => (event.type === 'user' ? event.content : event.type));
    expect(await contents(one)).toEqual(['a', 'b']);
    await append('c');
    await Promise.all([one.next(5_000), two.next(5_000)]);
    expect(reads.count).toBe(2);
    expect(await contents(one)).toEqual(['c']);
    expect(await contents(two)).toEqual(['a', 'b', 'c']);
    one.leave();
    two.leave();
  });

  it('cuts a stream that falls more than the limit behind, keeping the others; it resumes after its last seq', async () => {
    const { feeds, append } = await countedFeeds(2);
    const slow = feeds.join('s', { seq: 0, seen: 0 });
    const quick = feeds.join('s', { seq: 0, seen: 0 });
    await append('a');
    await quick.next(5_000);
    expect((await slow.take())?.events.map(({ seq }) => seq)).toEqual([1]);
    expect((await quick.take())?.events.map(({ seq }) => seq)).toEqual([1]);
    await append('b', 'c');
    await quick.next(5_000);
    expect((await quick.take())?.events.map(({ seq }) => seq)).toEqual([2, 3]);
    await append('d');
    await quick.next(5_000);
    // Three events behind a limit of two: cut, where it would resume (Last-Event-ID: 1).
    expect(await slow.take()).toBeUndefined();
    expect((await quick.take())?.events.map(({ seq }) => seq)).toEqual([4]);
    const resumed = feeds.join('s', { seq: 1, seen: undefined });
    expect((await resumed.take())?.events.map(({ seq }) => seq)).toEqual([2, 3, 4]);
    quick.leave();
    resumed.leave();
    slow.leave();
  });

  it('offers a new stream the whole log and queue it read last, only while nothing changed since', async () => {
    const { feeds, reads, append } = await countedFeeds();
    await append('a');
    const one = feeds.join('s', { seq: 0, seen: 0, queue: true, log: [] });
    await one.next(5_000);
    expect(feeds.current('s')?.events.map(({ seq }) => seq)).toEqual([1]);
    expect(feeds.current('s')?.queued).toEqual([]);
    expect(reads.count).toBe(1);
    await append('b');
    expect(feeds.current('s')).toBeUndefined();
    one.leave();
  });

  it('stops reading once the last stream of the session leaves; the next stream starts it again', async () => {
    const { feeds, reads, append } = await countedFeeds();
    const one = feeds.join('s', { seq: 0, seen: 0 });
    const two = feeds.join('s', { seq: 0, seen: 0 });
    expect(feeds.sessions).toEqual(['s']);
    one.leave();
    await append('a');
    await two.next(5_000);
    expect(reads.count).toBe(1);
    two.leave();
    await sleep(10);
    expect(feeds.sessions).toEqual([]);
    await append('b');
    await sleep(10);
    expect(reads.count).toBe(1);
    const three = feeds.join('s', { seq: 0, seen: 0 });
    await three.next(5_000);
    expect((await three.take())?.events.map(({ seq }) => seq)).toEqual([1, 2]);
    three.leave();
  });

  it('hands streams what this process appended from the log cache, reading the store only for the rest', async () => {
    const { feeds, reads, append } = await countedFeeds(undefined, { cached: true });
    const seat = feeds.join('s', { seq: 0, seen: 0, queue: true });
    await append('a');
    await seat.next(5_000);
    expect((await seat.take())?.events.map(({ seq }) => seq)).toEqual([1]);
    expect(reads.count).toBe(1);
    await append('b', 'c');
    await seat.next(5_000);
    expect((await seat.take())?.events.map(({ seq }) => seq)).toEqual([2, 3]);
    expect(reads.count).toBe(1);
    seat.leave();
  });

  it('shares one opening read among the streams of a session that open while nothing changes', async () => {
    const { feeds, append } = await countedFeeds();
    let opened = 0;
    const read = async () => {
      opened += 1;
      await sleep(5);
      return { events: [], queued: [], seen: 0, entries: [] };
    };
    await Promise.all([feeds.opening('s', read), feeds.opening('s', read)]);
    expect(opened).toBe(1);
    const running = feeds.opening('s', read);
    await append('a');
    await Promise.all([running, feeds.opening('s', read)]);
    expect(opened).toBe(3);
  });
});
