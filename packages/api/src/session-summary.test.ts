import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { inMemoryStores } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { sessionSummary } from './session-summary.js';

const at = (seq: number, event: PersistedEvent): StoredEvent => ({ session: 'stored', seq, event });
const user = (seq: number) => at(seq, { type: 'user', content: ` hi ${seq}`, timestamp: 1 });
const failed = (seq: number, turn: string) =>
  at(seq, {
    type: 'turn_end',
    content: 'The model provider failed.',
    payload: { turn, status: 'failed', error: 'ModelError' },
    timestamp: 1,
  });

const summaryOf = (events: StoredEvent[]) =>
  sessionSummary({ id: 's', stored: 'stored', events }, inMemoryStores());

describe('sessionSummary', () => {
  it('titles a session by its first message, null before it has one', async () => {
    expect(await summaryOf([])).toMatchObject({ title: null, turns: 0, lastTurn: null });
    expect(await summaryOf([user(1), failed(2, 't1'), user(3)])).toMatchObject({ title: 'hi 1' });
  });

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

  it("shows a fork idle where it cut a turn at a batch's results, and names its parent as the tenant does", async () => {
    const stores = inMemoryStores();
    await stores.log.fork('tag.fork', { session: 'tag.parent', seq: 4 });
    const result = at(4, {
      type: 'result',
      content: '[]',
      payload: { tools_executed: 0, success_count: 0, failure_count: 0 },
      timestamp: 1,
    });
    const shared = [user(1), failed(2, 't1'), user(3), result];
    const summaryOfFork = (events: StoredEvent[]) =>
      sessionSummary({ id: 'fork', stored: 'tag.fork', events }, stores);
    expect(await summaryOfFork(shared)).toMatchObject({
      title: 'hi 1',
      status: 'idle',
      turns: 2,
      lastTurn: { turn: 't1' },
      forkedFrom: { session: 'parent', seq: 4 },
    });
    expect(await summaryOfFork([...shared, user(5)])).toMatchObject({ status: 'running', turns: 3 });
  });
});
