import {
  buildMessages,
  compactedView,
  estimateMessagesTokens,
  type PersistedEvent,
  resultEvent,
  type StoredEvent,
} from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCache } from './context-cache.js';

const at = 1;
const user = (content: string): PersistedEvent => ({ type: 'user', content, timestamp: at });
const think = (content: string): PersistedEvent => ({ type: 'think', content, timestamp: at });
const call = (n: number): PersistedEvent => ({
  type: 'call',
  content: JSON.stringify({ name: 'echo', args: { text: `call ${n}` } }),
  payload: { index: 0 },
  timestamp: at,
});
const result = (n: number): PersistedEvent => ({
  ...resultEvent([{ tool: 'echo', status: 'success', content: `echo ${n}` }]),
  timestamp: at,
});
const respond = (content: string): PersistedEvent => ({ type: 'respond', content, timestamp: at });
const turnEnd = (status: 'done' | 'limit'): PersistedEvent => ({
  type: 'turn_end',
  content: 'The turn ended.',
  payload: { turn: 't', status },
  timestamp: at,
});
const compacted = (upToSeq: number): PersistedEvent => ({
  type: 'compacted',
  content: 'Compacted.',
  timestamp: at,
  payload: {
    upToSeq,
    summary: `up to ${upToSeq}`,
    tokensBefore: 10,
    tokensAfter: 5,
    strategy: 'drop',
    turns: 1,
    calls: 1,
  },
});

/**
 * A log in the pieces a session appends them, each piece ending where a model step reads the log:
 * after a turn's message or a batch's results. Turn two ends at its limit after results, so turn
 * three's message joins them; a compaction comes before one step.
 */
const pieces: Array<{ events: PersistedEvent[]; batch?: string }[]> = [
  [{ events: [user('turn one')] }],
  [
    { events: [think('plan'), call(1)], batch: 'b1' },
    { events: [result(1)], batch: 'b1' },
  ],
  [
    { events: [call(2)], batch: 'b2' },
    { events: [result(2)], batch: 'b2' },
  ],
  [{ events: [respond('done one')], batch: 'b3' }, { events: [turnEnd('done'), user('turn two')] }],
  [
    { events: [call(3)], batch: 'b4' },
    { events: [result(3)], batch: 'b4' },
  ],
  [{ events: [turnEnd('limit'), user('turn three')] }],
  [{ events: [compacted(9)] }, { events: [call(4)], batch: 'b5' }, { events: [result(4)], batch: 'b5' }],
  [
    { events: [call(5)], batch: 'b6' },
    { events: [result(5)], batch: 'b6' },
  ],
];

describe('ContextCache', () => {
  it('gives what buildMessages gives at every step, rendering only what was logged since the last', () => {
    const cache = new ContextCache();
    const log: StoredEvent[] = [];
    for (const piece of pieces) {
      for (const { events, batch } of piece)
        for (const event of events)
          log.push({
            session: 's',
            seq: log.length + 1,
            event,
            ...(batch ? { batch, ...(event.type === 'call' ? { position: 0 } : {}) } : {}),
          });
      const expected = buildMessages(log);
      const { messages, tokens } = cache.messages('s', compactedView(log));
      expect(messages).toEqual(expected);
      expect(tokens).toBe(estimateMessagesTokens(expected));
    }
    // Turn three's message joined the results before it, and the compaction's summary came first.
    expect(buildMessages(log)[0]?.content).toMatch(/^<summary>\nEvents 1–9/);
  });

  it('renders anew when the log is another: a fork, a shorter log, another compaction', () => {
    const cache = new ContextCache();
    const log: StoredEvent[] = pieces
      .flat()
      .flatMap(({ events, batch }) => events.map((event) => ({ event, ...(batch ? { batch } : {}) })))
      .map((entry, index) => ({ session: 's', seq: index + 1, ...entry }));
    cache.messages('s', compactedView(log));
    const earlier = log.slice(0, 6);
    expect(cache.messages('s', compactedView(earlier)).messages).toEqual(buildMessages(earlier));
  });

  it('forgets the sessions stepped least recently past its bound', () => {
    const cache = new ContextCache({ maxSessions: 1 });
    const hi: StoredEvent[] = [{ session: 's', seq: 1, event: user('hi') }];
    cache.messages('a', compactedView(hi));
    // Had it kept a's rendering, a log of the same seqs would be taken as the one it rendered.
    const bye: StoredEvent[] = [{ session: 's', seq: 1, event: user('bye') }];
    expect(cache.messages('a', compactedView(bye)).messages).toEqual([{ role: 'user', content: 'hi' }]);
    cache.messages('b', compactedView(hi));
    expect(cache.messages('a', compactedView(bye)).messages).toEqual([{ role: 'user', content: 'bye' }]);
  });
});
