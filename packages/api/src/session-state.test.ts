import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { sessionState } from './session-state.js';

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
