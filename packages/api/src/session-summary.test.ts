import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { inMemoryStores } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { sessionSummary } from './session-summary.js';

const at = (seq: number, event: PersistedEvent): StoredEvent => ({ session: 'stored', seq, event });
const user = (seq: number) => at(seq, { type: 'user', content: 'hi', timestamp: 1 });
const failed = (seq: number, turn: string) =>
  at(seq, {
    type: 'turn_end',
    content: 'The model provider failed.',
    payload: { turn, status: 'failed', error: 'ModelError' },
    timestamp: 1,
  });

const summaryOf = (events: StoredEvent[]) =>
  sessionSummary({ id: 's', stored: 'stored', events }, inMemoryStores().usage);

describe('sessionSummary', () => {
  it.each([
    ['no turn has ended: null', [user(1)], 'running', null],
    ['the last turn failed: it shows, the session idle', [user(1), failed(2, 't1')], 'idle', 't1'],
    ['the next turn runs: the last that ended', [user(1), failed(2, 't1'), user(3)], 'running', 't1'],
  ] as const)('lastTurn when %s', async (_, events, status, turn) => {
    expect(await summaryOf([...events])).toMatchObject({
      status,
      lastTurn: turn === null ? null : { turn, status: 'failed' },
    });
  });
});
