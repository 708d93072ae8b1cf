import { randomUUID } from 'node:crypto';
import { ERROR_NAMES, type PersistedEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../clock/clock.js';
import type { EventLog, NewEvent } from '../event-log/event-log.js';
import { describeEventLogForkContract } from './event-log-fork-contract.js';

const at = 1_700_000_000.25;
const user = (content: string): NewEvent => ({ event: { type: 'user', content, timestamp: at } });
const call = (batch: string, position: number): NewEvent => ({
  batch,
  position,
  event: {
    type: 'call',
    content: `{"name":"echo","args":{"n":${position}}}`,
    payload: { index: position },
    timestamp: at,
  },
});

/** A fresh session already held by its turn. */
async function openSession(log: EventLog): Promise<{ session: string; turn: string }> {
  const session = `s-${randomUUID()}`;
  const turn = `t-${randomUUID()}`;
  await log.acquireTurn(session, turn);
  return { session, turn };
}

/** A clock the test moves by hand, from a fixed start. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (ms) => (now += ms) };
}

/**
 * The behaviour every {@link EventLog} adapter must have (C2, C3, one writer per session by a
 * lease; forks by reference). Run it with a factory for the adapter under test on the given clock;
 * each test works in its own session.
 */
export function describeEventLogContract(adapter: string, createLogOn: (clock: Clock) => EventLog): void {
  const createLog = () => createLogOn(manualClock());
  describe(`EventLog contract: ${adapter}`, () => {
    it('C2 numbers events gap-free from 1 across appends, and returns each append range', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      expect(await log.append({ session, turn, key: 'a', events: [user('one')] })).toEqual({
        firstSeq: 1,
        count: 1,
        replayed: false,
      });
      const second = await log.append({ session, turn, key: 'b', events: [call('b1', 0), call('b1', 1)] });
      expect(second).toEqual({ firstSeq: 2, count: 2, replayed: false });
      const events = await log.read(session);
      expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
      expect(events[2]).toEqual({ session, seq: 3, ...call('b1', 1) });
    });

    it('C3 a replayed append writes nothing and returns the first result; the log stays byte-identical', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const first = await log.append({ session, turn, key: 'step-1', events: [user('hi'), call('b1', 0)] });
      const before = JSON.stringify(await log.read(session));
      const again = await log.append({
        session,
        turn,
        key: 'step-1',
        events: [user('different retry output')],
      });
      expect(again).toEqual({ ...first, replayed: true });
      expect(JSON.stringify(await log.read(session))).toBe(before);
    });

    it('C3 keeps an append’s note with its first result; appended() returns both, or nothing for a new key', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'first', events: [user('hi')] });
      const note = { model: 'm', usage: { inputTokens: 3 }, failure: 'é漢🙂 </x>' };
      await log.append({ session, turn, key: 'step', events: [call('b1', 0), call('b1', 1)], note });
      expect(await log.appended(session, 'step')).toEqual({ firstSeq: 2, count: 2, note });
      expect(await log.appended(session, 'first')).toEqual({ firstSeq: 1, count: 1 });
      expect(await log.appended(session, 'never')).toBeUndefined();
      expect(await log.appended(`s-${randomUUID()}`, 'step')).toBeUndefined();
    });

    it('C3 a replayed append keeps the first note', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'step', events: [call('b1', 0)], note: { answer: 'first' } });
      const again = await log.append({
        session,
        turn,
        key: 'step',
        events: [call('b1', 0), call('b1', 1)],
        note: { answer: 'second' },
      });
      expect(again).toEqual({ firstSeq: 1, count: 1, replayed: true });
      expect(await log.appended(session, 'step')).toEqual({
        firstSeq: 1,
        count: 1,
        note: { answer: 'first' },
      });
    });

    it('C3 records an append without events: appended() finds it at the next free seq, and a replay writes nothing', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'first', events: [user('hi')] });
      expect(await log.append({ session, turn, key: 'blank', events: [], note: { blank: true } })).toEqual({
        firstSeq: 2,
        count: 0,
        replayed: false,
      });
      expect(await log.appended(session, 'blank')).toEqual({ firstSeq: 2, count: 0, note: { blank: true } });
      expect(await log.append({ session, turn, key: 'blank', events: [user('late')] })).toEqual({
        firstSeq: 2,
        count: 0,
        replayed: true,
      });
      await log.append({ session, turn, key: 'next', events: [user('next')] });
      expect((await log.read(session)).map((stored) => stored.seq)).toEqual([1, 2]);
    });

    it('C3 concurrent deliveries of one append write it once', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const request = { session, turn, key: 'dup', events: [call('b1', 0), call('b1', 1)] };
      const results = await Promise.all([log.append(request), log.append(request), log.append(request)]);
      expect(new Set(results.map((result) => result.firstSeq))).toEqual(new Set([1]));
      expect(results.filter((result) => !result.replayed)).toHaveLength(1);
      expect(await log.read(session)).toHaveLength(2);
    });

    it('C2 concurrent appends with different keys in one turn all land, gap-free and whole', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          log.append({
            session,
            turn,
            key: `k${index}`,
            events: [call(`b${index}`, 0), call(`b${index}`, 1)],
          }),
        ),
      );
      const events = await log.read(session);
      expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 16 }, (_, index) => index + 1));
      for (let index = 0; index < 16; index += 2) expect(events[index]?.batch).toBe(events[index + 1]?.batch);
    });

    it('allows one writing turn per session: a second turn gets SessionBusy and writes nothing', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      expect(await log.acquireTurn(session, turn)).toEqual({});
      await expect(log.acquireTurn(session, 'other-turn')).rejects.toMatchObject({
        name: ERROR_NAMES.sessionBusy,
        message: expect.stringContaining('lease runs until'),
      });
      await expect(
        log.append({ session, turn: 'other-turn', key: 'x', events: [user('interleaved?')] }),
      ).rejects.toMatchObject({ name: ERROR_NAMES.sessionBusy, message: expect.stringContaining(turn) });
      expect(await log.read(session)).toEqual([]);
      await log.append({ session, turn, key: 'end', events: [user('last')], release: true });
      expect(await log.acquireTurn(session, 'other-turn')).toEqual({});
      await log.append({ session, turn: 'other-turn', key: 'y', events: [user('now mine')] });
      expect(await log.read(session)).toHaveLength(2);
    });

    it('a releasing append frees the session once; replayed, it returns the first result', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const end = { session, turn, key: 'end', events: [user('bye')], release: true };
      const first = await log.append(end);
      await log.acquireTurn(session, 'next');
      expect(await log.append(end)).toEqual({ ...first, replayed: true });
      await log.append({ session, turn: 'next', key: 'n', events: [user('next')] });
      expect((await log.read(session)).map((event) => event.event)).toMatchObject([
        { content: 'bye' },
        { content: 'next' },
      ]);
    });

    it('lets another turn take an expired lease, names the turn it took it from, and refuses the old one', async () => {
      const clock = manualClock();
      const log = createLogOn(clock);
      const session = `s-${randomUUID()}`;
      await log.acquireTurn(session, 'old', { leaseMs: 1_000 });
      clock.advance(999);
      await expect(log.acquireTurn(session, 'new')).rejects.toMatchObject({ name: ERROR_NAMES.sessionBusy });
      clock.advance(2);
      expect(await log.acquireTurn(session, 'new')).toEqual({ previous: 'old' });
      await expect(
        log.append({ session, turn: 'old', key: 'late', events: [user('zombie')] }),
      ).rejects.toMatchObject({ name: ERROR_NAMES.sessionBusy });
      expect(await log.read(session)).toEqual([]);
    });

    it('renews the lease with every append, keeping the length the turn chose', async () => {
      const clock = manualClock();
      const log = createLogOn(clock);
      const session = `s-${randomUUID()}`;
      await log.acquireTurn(session, 'holder', { leaseMs: 1_000 });
      await log.acquireTurn(session, 'holder');
      clock.advance(800);
      await log.append({ session, turn: 'holder', key: 'a', events: [user('still here')] });
      clock.advance(800);
      await expect(log.acquireTurn(session, 'other')).rejects.toMatchObject({
        name: ERROR_NAMES.sessionBusy,
      });
      clock.advance(201);
      expect(await log.acquireTurn(session, 'other')).toEqual({ previous: 'holder' });
    });

    it('takes a live lease over when asked to', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      expect(await log.acquireTurn(session, 'rescuer', { takeOver: true })).toEqual({ previous: turn });
      await log.append({ session, turn: 'rescuer', key: 'r', events: [user('mine')] });
      expect(await log.read(session)).toHaveLength(1);
    });

    it('names the holder and its lease; a released session has none', async () => {
      const clock = manualClock();
      const log = createLogOn(clock);
      const session = `s-${randomUUID()}`;
      expect(await log.holder(session)).toBeUndefined();
      await log.acquireTurn(session, 'holder', { leaseMs: 1_000 });
      expect(await log.holder(session)).toEqual({
        turn: 'holder',
        leaseUntil: clock.now() + 1_000,
        cancelRequested: false,
      });
      await log.append({ session, turn: 'holder', key: 'end', events: [user('bye')], release: true });
      expect(await log.holder(session)).toBeUndefined();
    });

    it('flags the holding turn as asked to stop, and only it: the next turn starts unflagged', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      expect(await log.requestCancel(session, 'not-the-holder')).toBe(false);
      expect(await log.holder(session)).toMatchObject({ turn, cancelRequested: false });
      expect(await log.requestCancel(session, turn)).toBe(true);
      expect(await log.requestCancel(session, turn)).toBe(true);
      expect(await log.holder(session)).toMatchObject({ turn, cancelRequested: true });
      await log.append({ session, turn, key: 'end', events: [user('stopped')], release: true });
      expect(await log.requestCancel(session, turn)).toBe(false);
      await log.acquireTurn(session, 'next');
      expect(await log.holder(session)).toMatchObject({ turn: 'next', cancelRequested: false });
    });

    it('refuses appends from a turn that never acquired the session', async () => {
      const log = createLog();
      await expect(
        log.append({ session: `s-${randomUUID()}`, turn: 't', key: 'k', events: [user('x')] }),
      ).rejects.toMatchObject({
        name: ERROR_NAMES.sessionBusy,
        message: expect.stringContaining('start the turn'),
      });
    });

    it('stores content larger than a DynamoDB item and reads it back whole', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const big = `${'é漢🙂'.repeat(150_000)}</execute>"\\`;
      const result: PersistedEvent = {
        type: 'result',
        content: JSON.stringify([{ tool: 'blob', status: 'success', content: big }]),
        payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
        timestamp: at,
      };
      await log.append({
        session,
        turn,
        key: 'big',
        events: [user('go'), { batch: 'b1', event: result }, user('after')],
      });
      const events = await log.read(session);
      expect(events.map((event) => event.event.type)).toEqual(['user', 'result', 'user']);
      expect(events[1]?.event).toEqual(result);
    });

    it('appends a batch larger than one DynamoDB transaction atomically enough to stay gap-free', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const events = Array.from({ length: 250 }, (_, index) => call('wide', index));
      expect(await log.append({ session, turn, key: 'wide', events, note: { wide: true } })).toMatchObject({
        firstSeq: 1,
        count: 250,
      });
      expect(await log.appended(session, 'wide')).toEqual({ firstSeq: 1, count: 250, note: { wide: true } });
      const stored = await log.read(session);
      expect(stored.map((event) => event.position)).toEqual(events.map((_, index) => index));
      expect(await log.append({ session, turn, key: 'wide', events })).toMatchObject({
        replayed: true,
        count: 250,
      });
      expect(await log.read(session)).toHaveLength(250);
    });

    it('reads after a seq, and an unknown session is empty', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'a', events: [user('1'), user('2'), user('3')] });
      expect((await log.read(session, { afterSeq: 2 })).map((event) => event.seq)).toEqual([3]);
      expect(await log.read(`s-${randomUUID()}`)).toEqual([]);
    });

    it('gives a snapshot: the events after a seq, the holder and the mark of the last append that set one', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'a', events: [user('one')], mark: 'step-1' });
      await log.append({ session, turn, key: 'b', events: [call('b1', 0), call('b1', 1)] });
      const snapshot = await log.snapshot(session, { afterSeq: 1 });
      expect(snapshot.events).toEqual((await log.read(session)).slice(1));
      expect(snapshot.holder).toMatchObject({ turn, cancelRequested: false });
      expect(snapshot.mark).toBe('step-1');
      await log.append({ session, turn, key: 'c', events: [], mark: 'step-2', expectedSeq: 4 });
      expect((await log.snapshot(session)).mark).toBe('step-2');
      expect(await log.snapshot(`s-${randomUUID()}`)).toEqual({
        events: [],
        holder: undefined,
        mark: undefined,
      });
    });

    it("keeps a marking append's note with its mark when small, and forgets it with the next mark", async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const note = { model: 'm', context: { estimatedTokens: 10, inputTokens: 12 } };
      await log.append({ session, turn, key: 'a', events: [user('one')], mark: 'step-1', note });
      expect(await log.snapshot(session)).toMatchObject({ mark: 'step-1', markNote: note });
      await log.append({ session, turn, key: 'b', events: [user('two')] });
      expect((await log.snapshot(session)).markNote).toEqual(note);
      const long = { text: 'x'.repeat(2_000) };
      await log.append({ session, turn, key: 'c', events: [user('three')], mark: 'step-2', note: long });
      expect(await log.snapshot(session)).not.toHaveProperty('markNote');
      await log.append({ session, turn, key: 'd', events: [], mark: 'step-3', note, expectedSeq: 4 });
      await log.append({ session, turn, key: 'e', events: [], mark: 'step-4', expectedSeq: 4 });
      expect(await log.snapshot(session)).not.toHaveProperty('markNote');
    });

    it('starts a snapshot from the context start the latest compaction set, and gives it', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      await log.append({ session, turn, key: 'a', events: [user('1'), user('2'), user('3')] });
      expect(await log.snapshot(session, { fromContext: true })).not.toHaveProperty('start');
      const carry = { turn, calls: { k: 2 }, approvalWaitMs: 5, user: { instructions: 'be brief' } };
      const start = { from: 3, through: 3, carry };
      await log.append({ session, turn, key: 'b', events: [user('4')], contextStart: start });
      const fromContext = await log.snapshot(session, { fromContext: true });
      expect(fromContext.start).toEqual(start);
      // The events may start earlier (a process holding them all), never later.
      expect(fromContext.events[0]?.seq).toBeLessThanOrEqual(3);
      expect(fromContext.events.filter((stored) => stored.seq >= 3)).toEqual(
        (await log.read(session)).slice(2),
      );
      const later = { from: 4, through: 4 };
      await log.append({ session, turn, key: 'c', events: [user('5')], contextStart: later });
      expect((await log.snapshot(session, { fromContext: true })).start).toEqual(later);
      expect((await log.snapshot(session)).events).toEqual(await log.read(session));
      expect(await log.snapshot(session)).not.toHaveProperty('start');
    });

    it('reports a cancel that came before an append that asks, and appends all the same', async () => {
      const log = createLog();
      const { session, turn } = await openSession(log);
      const quiet = await log.append({ session, turn, key: 'a', events: [user('one')], reportCancel: true });
      expect(quiet).toEqual({ firstSeq: 1, count: 1, replayed: false, cancelRequested: false });
      await log.requestCancel(session, turn);
      // With the next seq known (no read before the write), and without it.
      const known = { key: 'b', events: [call('b1', 0)], expectedSeq: 2 };
      expect(await log.append({ session, turn, ...known, reportCancel: true })).toEqual({
        firstSeq: 2,
        count: 1,
        replayed: false,
        cancelRequested: true,
      });
      const unknown = { key: 'c', events: [call('b2', 0)], reportCancel: true };
      expect(await log.append({ session, turn, ...unknown })).toMatchObject({
        firstSeq: 3,
        cancelRequested: true,
      });
      expect((await log.read(session)).map((stored) => stored.seq)).toEqual([1, 2, 3]);
      // An append that does not ask is told nothing.
      expect(await log.append({ session, turn, key: 'd', events: [] })).not.toHaveProperty('cancelRequested');
    });

    it('keeps concurrent sessions apart', async () => {
      const log = createLog();
      const sessions = await Promise.all(Array.from({ length: 20 }, () => openSession(log)));
      await Promise.all(
        sessions.map(({ session, turn }) =>
          log.append({ session, turn, key: 'k', events: [user(session), user(`${session} again`)] }),
        ),
      );
      for (const { session } of sessions) {
        const events = await log.read(session);
        expect(events.map((event) => event.session)).toEqual([session, session]);
        expect(events[0]?.event).toMatchObject({ content: session });
      }
    });
  });
  describeEventLogForkContract(adapter, createLog);
}
