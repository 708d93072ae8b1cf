import type { TurnInput } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { inMemoryStores } from '../in-memory-stores.js';
import { beginTurn } from './begin-turn.js';

const clock = { now: () => 1_700_000_000_000 };
const ids = { session: () => 's-new', turn: () => 't-1' };

describe('beginTurn', () => {
  it('names the turn, submits it and starts its execution with references and limits only', async () => {
    const stores = inMemoryStores();
    const started: TurnInput[] = [];
    const starter = {
      start: async (input: TurnInput) => {
        started.push(input);
        return 'arn:execution:t-1';
      },
      stop: async () => {},
    };
    const begun = await beginTurn(
      { prompt: 'Hi', limits: { maxSteps: 3, budget: { maxTokens: 100 } } },
      { ...stores, clock, ids, starter },
    );
    expect(begun).toEqual({ session: 's-new', turn: 't-1', execution: 'arn:execution:t-1' });
    expect(started).toEqual([{ session: 's-new', turn: 't-1', maxSteps: 3, budget: { maxTokens: 100 } }]);
    expect((await stores.log.read('s-new')).map((stored) => stored.event)).toEqual([
      { type: 'user', content: 'Hi', timestamp: 1_700_000_000 },
    ]);
  });

  it('ends the turn in the log and frees the session when its execution cannot start', async () => {
    const stores = inMemoryStores();
    const starter = {
      start: async () => {
        throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      },
      stop: async () => {},
    };
    await expect(
      beginTurn({ session: 's', prompt: 'Hi' }, { ...stores, clock, ids, starter }),
    ).rejects.toThrow('Rate exceeded');
    const last = (await stores.log.read('s')).at(-1)?.event;
    expect(last).toMatchObject({
      type: 'turn_end',
      content: "The turn's execution did not start: ThrottlingException: Rate exceeded",
      payload: { turn: 't-1', status: 'failed' },
    });
    expect(await stores.log.acquireTurn('s', 'next')).toEqual({});
  });
});
