import type { StoredEvent } from '@agentstep/protocol';
import { InMemoryEventLog } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { InMemoryLiveSteps } from './in-memory-live-steps.js';
import { LiveTail } from './live-tail.js';

const respond = (seq: number, batch: string): StoredEvent => ({
  session: 's',
  seq,
  batch,
  event: { type: 'respond', content: 'x', timestamp: 1 },
});

describe('LiveTail', () => {
  it('keeps only the steps it saw from their first piece', () => {
    const live = new InMemoryLiveSteps();
    live.write({ session: 's', step: 0, text: 'Half' });
    const tail = new LiveTail(live, 's');
    live.write({ session: 's', step: 0, text: ' a step.' });
    live.write({ session: 's', step: 1, text: 'Whole.' });
    expect(tail.due(0).map(({ step, text }) => ({ step, text }))).toEqual([{ step: 1, text: 'Whole.' }]);
  });

  it("hands a step's pieces out once the events logged before it are sent, and knows its stored events", async () => {
    const live = new InMemoryLiveSteps();
    const tail = new LiveTail(live, 's');
    const arrived = tail.arrival();
    live.write({ session: 's', step: 0, text: 'Hi' });
    await arrived;
    expect(tail.due(0)).toHaveLength(1);
    expect(tail.streamed(respond(1, 't.1'))).toBe(true);
    expect(tail.streamed(respond(2, 't.1'))).toBe(true);
    expect(tail.streamed(respond(3, 't.2'))).toBe(false);
    tail.stop();
  });

  it('knows the stored events of a streamed step that a compaction logged after its text comes before', async () => {
    const live = new InMemoryLiveSteps();
    const tail = new LiveTail(live, 's');
    const log = live.watch(new InMemoryEventLog());
    await log.acquireTurn('s', 't');
    const user = { event: { type: 'user' as const, content: 'hi', timestamp: 1 } };
    await log.append({ session: 's', turn: 't', key: 'k', events: [user, user] });
    live.write({ session: 's', step: 0, text: 'Hi' });
    expect(tail.due(2)).toHaveLength(1);
    const compacted: StoredEvent = {
      session: 's',
      seq: 3,
      event: {
        type: 'compacted',
        content: 'Compacted.',
        timestamp: 1,
        payload: {
          upToSeq: 1,
          summary: 'A greeting.',
          tokensBefore: 9,
          tokensAfter: 3,
          strategy: 'drop',
          turns: 1,
          calls: 0,
        },
      },
    };
    expect(tail.streamed(compacted)).toBe(false);
    expect(tail.streamed(respond(4, 't.1'))).toBe(true);
    expect(tail.streamed(respond(5, 't.2'))).toBe(false);
    tail.stop();
  });

  it('holds pieces whose step began after events the stream has not sent yet', async () => {
    const live = new InMemoryLiveSteps();
    const tail = new LiveTail(live, 's');
    const user = { event: { type: 'user' as const, content: 'hi', timestamp: 1 } };
    const log = live.watch(new InMemoryEventLog());
    await log.acquireTurn('s', 't');
    await log.append({ session: 's', turn: 't', key: 'k', events: [user, user, user, user], expectedSeq: 1 });
    live.write({ session: 's', step: 0, text: 'Hi' });
    expect(tail.due(3)).toEqual([]);
    expect(tail.due(4)).toHaveLength(1);
  });
});
