import { describe, expect, it } from 'vitest';
import type { PersistedEvent, StoredEvent } from '../events/stored-event.js';
import { resultEvent } from '../results/result-event.js';
import { compactionCuts } from './compaction-cuts.js';

const at = 1_700_000_000;
const user = (content: string): PersistedEvent => ({ type: 'user', content, timestamp: at });
const call: PersistedEvent = { type: 'call', content: '{"name":"echo","args":{}}', timestamp: at };
const result: PersistedEvent = {
  ...resultEvent([{ tool: 'echo', status: 'success', content: 'x' }]),
  timestamp: at,
};
const respond: PersistedEvent = { type: 'respond', content: 'done', timestamp: at };
const turnEnd: PersistedEvent = {
  type: 'turn_end',
  content: 'The turn finished.',
  timestamp: at,
  payload: { turn: 't1', status: 'done' },
};

/** A log from seq `first` on. */
function logOf(events: PersistedEvent[], first = 1): StoredEvent[] {
  return events.map((event, index) => ({ session: 's', seq: first + index, event }));
}

describe('compactionCuts', () => {
  it("cuts after each batch's results and before each turn's message, never between a call and its result", () => {
    // 1 user, 2 call, 3 result, 4 respond, 5 turn_end, 6 user, 7 call, 8 result, 9 call, 10 result
    const log = logOf([user('a'), call, result, respond, turnEnd, user('b'), call, result, call, result]);
    expect(compactionCuts(log)).toEqual([3, 5, 8]);
  });

  it("keeps the newest exchange: the latest step with its results, or the turn's message", () => {
    expect(compactionCuts(logOf([user('a'), call, result]))).toEqual([]);
    expect(compactionCuts(logOf([user('a'), respond, turnEnd, user('b')]))).toEqual([3]);
    expect(compactionCuts(logOf([user('a'), call, result, respond, turnEnd, user('b')]))).toEqual([3, 5]);
  });

  it('never leaves the older part empty: a view starting at a turn has no cut before it', () => {
    expect(compactionCuts(logOf([user('b'), call, result, call, result], 41))).toEqual([43]);
    expect(compactionCuts([])).toEqual([]);
  });
});
