import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { sessionState, sessionStatus } from './session-state.js';

const at = (seq: number, event: PersistedEvent): StoredEvent => ({ session: 's', seq, event });
const user = (seq: number) => at(seq, { type: 'user', content: 'hi', timestamp: 1 });
const end = (seq: number, turn: string) =>
  at(seq, {
    type: 'turn_end',
    content: 'The turn finished.',
    payload: { turn, status: 'done' },
    timestamp: 1,
  });

describe('sessionState', () => {
  it('a user event without a turn_end after it is a running turn', () => {
    expect(sessionState([user(1), end(2, 't1'), user(3)])).toMatchObject({
      turns: 2,
      running: true,
      lastSeq: 3,
    });
  });

  it('folds events stored later onto an earlier state, as a stream does', () => {
    const before = sessionState([user(1)]);
    const after = sessionState([end(2, 't1')], before);
    expect(after).toMatchObject({
      turns: 1,
      running: false,
      lastSeq: 2,
      lastEnd: { payload: { turn: 't1' } },
    });
    expect(sessionState([], after)).toEqual(after);
  });
});

describe('sessionStatus', () => {
  const approval = (seq: number, status: 'requested' | 'approved', batch: string) =>
    ({
      ...at(seq, { type: 'approval', payload: { id: `${batch}.0`, index: 0, status }, timestamp: 1 }),
      batch,
    }) as StoredEvent;

  it.each([
    ['idle without a running turn', [user(1), end(2, 't1')], 'idle'],
    ['running while the turn has no call waiting', [user(1)], 'running'],
    [
      'waiting while a call of the running turn waits for a decision',
      [user(1), approval(2, 'requested', 't1.1')],
      'waiting',
    ],
    [
      'running again once it is decided',
      [user(1), approval(2, 'requested', 't1.1'), approval(3, 'approved', 't1.1')],
      'running',
    ],
    [
      'running when only an earlier turn left one waiting',
      [user(1), approval(2, 'requested', 't1.1'), end(3, 't1'), user(4)],
      'running',
    ],
  ] as const)('is %s', (_, events, status) => {
    expect(sessionStatus(events)).toBe(status);
  });
});
