import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { QueuedMessage, TurnQueue } from '../queue/turn-queue.js';

const message = (turn: string, queuedAt: number, prompt = `Message of ${turn}`): QueuedMessage => ({
  turn,
  prompt,
  queuedAt,
});

/** The behaviour every {@link TurnQueue} adapter must have; each test works in its own session. */
export function describeTurnQueueContract(adapter: string, createQueue: () => TurnQueue): void {
  describe(`TurnQueue contract: ${adapter}`, () => {
    const newSession = () => `s-${randomUUID()}`;

    it('answers each message its position and lists them in the order queued, the limits kept', async () => {
      const queue = createQueue();
      const session = newSession();
      const limits = { maxSteps: 3, request: { session: 'tenant-session', tenant: 'ann' } };
      expect(await queue.enqueue(session, { ...message('t-1', 1_000), limits })).toBe(1);
      expect(await queue.enqueue(session, message('t-2', 2_000))).toBe(2);
      expect(await queue.enqueue(session, message('t-3', 3_000))).toBe(3);
      expect(await queue.list(session)).toEqual([
        { ...message('t-1', 1_000), limits },
        message('t-2', 2_000),
        message('t-3', 3_000),
      ]);
    });

    it('queues a turn once: queuing it again answers its position', async () => {
      const queue = createQueue();
      const session = newSession();
      await queue.enqueue(session, message('t-1', 1_000));
      await queue.enqueue(session, message('t-2', 2_000));
      expect(await queue.enqueue(session, message('t-1', 5_000))).toBe(1);
      expect((await queue.list(session)).map((queued) => queued.turn)).toEqual(['t-1', 't-2']);
      // Once it has left the queue, adding it again (a late retry) adds nothing.
      await queue.remove(session, 't-1');
      expect(await queue.enqueue(session, message('t-1', 6_000))).toBe(0);
      expect((await queue.list(session)).map((queued) => queued.turn)).toEqual(['t-2']);
    });

    it('queues a turn added by concurrent retries once', async () => {
      const queue = createQueue();
      const session = newSession();
      const positions = await Promise.all([1, 2, 3].map((n) => queue.enqueue(session, message('t-1', n))));
      expect(positions).toEqual([1, 1, 1]);
      expect(await queue.list(session)).toHaveLength(1);
    });

    it('puts an interrupting message before the others', async () => {
      const queue = createQueue();
      const session = newSession();
      await queue.enqueue(session, message('t-1', 1_000));
      expect(await queue.enqueue(session, message('t-now', 2_000), 'first')).toBe(1);
      expect((await queue.list(session)).map((queued) => queued.turn)).toEqual(['t-now', 't-1']);
    });

    it('withdraws a message until it is claimed; a claimed message is removed once its turn started', async () => {
      const queue = createQueue();
      const session = newSession();
      await queue.enqueue(session, message('t-1', 1_000));
      await queue.enqueue(session, message('t-2', 2_000));
      expect(await queue.claim(session, 't-1')).toBe(true);
      expect(await queue.withdraw(session, 't-1')).toBe(false);
      expect((await queue.list(session))[0]).toMatchObject({ turn: 't-1', claimed: true });
      expect(await queue.withdraw(session, 't-2')).toBe(true);
      expect(await queue.withdraw(session, 't-2')).toBe(false);
      expect(await queue.claim(session, 't-2')).toBe(false);
      await queue.remove(session, 't-1');
      expect(await queue.list(session)).toEqual([]);
    });

    it('lists the sessions that have queued messages, and forgets an emptied one', async () => {
      const queue = createQueue();
      const [kept, emptied] = [newSession(), newSession()];
      await queue.enqueue(kept, message('t-1', 1_000));
      await queue.enqueue(emptied, message('t-2', 1_000));
      expect(await queue.sessions()).toEqual(expect.arrayContaining([kept, emptied]));
      await queue.remove(emptied, 't-2');
      const listed = await queue.sessions();
      expect(listed).toContain(kept);
      expect(listed).not.toContain(emptied);
    });
  });
}
