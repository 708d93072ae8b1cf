import { randomUUID } from 'node:crypto';
import { ERROR_NAMES, type PersistedEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import type { EventLog, NewEvent } from '../event-log/event-log.js';

const at = 1_700_000_000.5;
const user = (content: string): NewEvent => ({ event: { type: 'user', content, timestamp: at } });
const newId = (prefix: string) => `${prefix}-${randomUUID()}`;

/** A session holding `contents` as user events, appended by one turn that then frees it. */
async function sessionOf(log: EventLog, ...contents: string[]): Promise<string> {
  const session = newId('s');
  const turn = newId('t');
  await log.acquireTurn(session, turn);
  await log.append({ session, turn, key: 'all', release: true, events: contents.map(user) });
  return session;
}

/** Appends `contents` to `session` in a new turn of its own. */
async function appendTurn(log: EventLog, session: string, ...contents: string[]): Promise<void> {
  const turn = newId('t');
  await log.acquireTurn(session, turn);
  await log.append({ session, turn, key: turn, release: true, events: contents.map(user) });
}

const contents = (events: ReadonlyArray<{ event: PersistedEvent }>) =>
  events.map(({ event }) => event.content);

/**
 * What every {@link EventLog} adapter does for forks: a fork reads its parent's events up to the
 * fork point, by reference, then its own after them; forks of forks read through each parent.
 */
export function describeEventLogForkContract(adapter: string, createLog: () => EventLog): void {
  describe(`EventLog fork contract: ${adapter}`, () => {
    it('reads the parent up to the fork point under its own id, then its own events from the next seq', async () => {
      const log = createLog();
      const parent = await sessionOf(log, 'one', 'two', 'three');
      const fork = newId('s');
      await log.fork(fork, { session: parent, seq: 2 });
      expect(await log.read(fork)).toEqual(
        (await log.read(parent)).slice(0, 2).map((e) => ({ ...e, session: fork })),
      );
      await appendTurn(log, fork, 'fork three');
      await appendTurn(log, parent, 'four');
      const events = await log.read(fork);
      expect(events.map(({ seq, session }) => ({ seq, session }))).toEqual(
        [1, 2, 3].map((seq) => ({ seq, session: fork })),
      );
      expect(contents(events)).toEqual(['one', 'two', 'fork three']);
      expect(contents(await log.read(parent))).toEqual(['one', 'two', 'three', 'four']);
      expect(contents(await log.read(fork, { afterSeq: 1 }))).toEqual(['two', 'fork three']);
      expect(contents(await log.read(fork, { afterSeq: 2 }))).toEqual(['fork three']);
      // A snapshot reads the same events as a read, the parent's included.
      expect((await log.snapshot(fork, { afterSeq: 1 })).events).toEqual(
        await log.read(fork, { afterSeq: 1 }),
      );
      expect((await log.snapshot(fork)).events).toEqual(events);
    });

    it('reads a fork of a fork through both parents', async () => {
      const log = createLog();
      const root = await sessionOf(log, 'a', 'b', 'c');
      const child = newId('s');
      await log.fork(child, { session: root, seq: 3 });
      await appendTurn(log, child, 'd', 'e');
      const grandchild = newId('s');
      await log.fork(grandchild, { session: child, seq: 4 });
      await appendTurn(log, grandchild, 'f');
      expect(contents(await log.read(grandchild))).toEqual(['a', 'b', 'c', 'd', 'f']);
      expect((await log.read(grandchild)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(await log.origin(grandchild)).toEqual({ session: child, seq: 4 });
    });

    it('names its origin, is free to take, and forking again with the same origin while untouched changes nothing', async () => {
      const log = createLog();
      const parent = await sessionOf(log, 'one', 'two');
      const fork = newId('s');
      await log.fork(fork, { session: parent, seq: 1 });
      await log.fork(fork, { session: parent, seq: 1 });
      await log.fork(fork, { session: parent, seq: 1 }, { key: 'another request' });
      expect(await log.origin(fork)).toEqual({ session: parent, seq: 1 });
      expect(await log.origin(parent)).toBeUndefined();
      expect(await log.holder(fork)).toBeUndefined();
      expect(await log.read(fork)).toHaveLength(1);
    });

    it('refuses to fork again into a fork that has events of its own or a turn holding it', async () => {
      const log = createLog();
      const parent = await sessionOf(log, 'one', 'two');
      const origin = { session: parent, seq: 2 };
      const used = newId('s');
      await log.fork(used, origin);
      await appendTurn(log, used, 'fork three');
      await expect(log.fork(used, origin)).rejects.toMatchObject({ name: ERROR_NAMES.sessionExists });
      const held = newId('s');
      await log.fork(held, origin);
      await log.acquireTurn(held, newId('t'));
      await expect(log.fork(held, origin)).rejects.toMatchObject({ name: ERROR_NAMES.sessionExists });
      expect(contents(await log.read(used))).toEqual(['one', 'two', 'fork three']);
      expect(await log.origin(used)).toEqual(origin);
    });

    it('answers a retry with the key the fork was made with as the first, whatever the fork did since', async () => {
      const log = createLog();
      const parent = await sessionOf(log, 'one', 'two');
      const origin = { session: parent, seq: 2 };
      const fork = newId('s');
      await log.fork(fork, origin, { key: 'request-1' });
      await appendTurn(log, fork, 'fork three');
      await log.fork(fork, origin, { key: 'request-1' });
      await expect(log.fork(fork, origin, { key: 'request-2' })).rejects.toMatchObject({
        name: ERROR_NAMES.sessionExists,
      });
      await expect(log.fork(fork, origin)).rejects.toMatchObject({ name: ERROR_NAMES.sessionExists });
      await expect(log.fork(fork, { session: parent, seq: 1 }, { key: 'request-1' })).rejects.toMatchObject({
        name: ERROR_NAMES.sessionExists,
      });
      expect(contents(await log.read(fork))).toEqual(['one', 'two', 'fork three']);
    });

    it('refuses to fork into a session that exists, or that is a fork from elsewhere', async () => {
      const log = createLog();
      const parent = await sessionOf(log, 'one', 'two');
      const taken = await sessionOf(log, 'mine');
      await expect(log.fork(taken, { session: parent, seq: 1 })).rejects.toMatchObject({
        name: ERROR_NAMES.sessionExists,
      });
      const fork = newId('s');
      await log.fork(fork, { session: parent, seq: 1 });
      await expect(log.fork(fork, { session: parent, seq: 2 })).rejects.toMatchObject({
        name: ERROR_NAMES.sessionExists,
      });
      expect(contents(await log.read(taken))).toEqual(['mine']);
    });

    it('reads content larger than a DynamoDB item from the parent whole', async () => {
      const log = createLog();
      const big = 'é漢🙂'.repeat(120_000);
      const parent = await sessionOf(log, big, 'after');
      const fork = newId('s');
      await log.fork(fork, { session: parent, seq: 1 });
      expect(contents(await log.read(fork))).toEqual([big]);
    });
  });
}
