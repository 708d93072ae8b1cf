import type { TurnInput } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { eventLogWith } from '../event-log/event-log-with.js';
import { inMemoryStores } from '../in-memory-stores.js';
import type { ExecutionStarter } from '../session/execution-starter.js';
import { endTurn } from '../steps/end-turn.js';
import { submitTurn } from '../steps/submit-turn.js';
import { startQueuedTurn } from './start-queued-turn.js';

function setup() {
  const started: TurnInput[] = [];
  const starter: ExecutionStarter = {
    start: async (input) => {
      started.push(input);
      return `execution-${input.turn}`;
    },
    stop: async () => {},
  };
  const clock = { now: () => 1_700_000_000_000 };
  const deps = { ...inMemoryStores(), clock, starter };
  const queue = (turn: string, queuedAt: number) =>
    deps.queue.enqueue('s', { turn, prompt: `Message ${turn}`, queuedAt, limits: { maxSteps: 4 } });
  return { deps, started, queue };
}

describe('startQueuedTurn', () => {
  it('starts nothing while a turn holds the session, then the first queued message under its own turn id', async () => {
    const { deps, started, queue } = setup();
    await submitTurn({ session: 's', turn: 't-running', prompt: 'First' }, deps);
    await queue('t-2', 2);
    await queue('t-3', 3);
    expect(await startQueuedTurn('s', deps)).toBeUndefined();
    expect(started).toEqual([]);
    await endTurn({ session: 's', turn: 't-running', status: 'done', message: 'The turn finished.' }, deps);
    expect(await startQueuedTurn('s', deps)).toMatchObject({ session: 's', turn: 't-2' });
    expect(started).toEqual([{ session: 's', turn: 't-2', maxSteps: 4 }]);
    expect((await deps.log.read('s')).at(-1)?.event).toMatchObject({ type: 'user', content: 'Message t-2' });
    expect((await deps.queue.list('s')).map((queued) => queued.turn)).toEqual(['t-3']);
    // t-2 holds the session now: t-3 waits for its end.
    expect(await startQueuedTurn('s', deps)).toBeUndefined();
  });

  it('only removes a message whose turn was begun before, and starts the next', async () => {
    const { deps, started, queue } = setup();
    await queue('t-2', 2);
    await queue('t-3', 3);
    await submitTurn({ session: 's', turn: 't-2', prompt: 'Message t-2' }, deps);
    await endTurn({ session: 's', turn: 't-2', status: 'done', message: 'The turn finished.' }, deps);
    expect(await startQueuedTurn('s', deps)).toMatchObject({ turn: 't-3' });
    expect(started.map((input) => input.turn)).toEqual(['t-3']);
    expect(await deps.queue.list('s')).toEqual([]);
  });

  it('starts nothing for an empty queue', async () => {
    const { deps, started } = setup();
    expect(await startQueuedTurn('s', deps)).toBeUndefined();
    expect(started).toEqual([]);
  });

  it('keeps a message it could not begin for the store failing, for the next try', async () => {
    const { deps, started, queue } = setup();
    await queue('t-2', 2);
    const failing = eventLogWith(deps.log, {
      acquireTurn: () => Promise.reject(new Error('ProvisionedThroughputExceededException')),
    });
    await expect(startQueuedTurn('s', { ...deps, log: failing })).rejects.toThrow('ProvisionedThroughput');
    expect(started).toEqual([]);
    expect(await deps.queue.list('s')).toMatchObject([{ turn: 't-2', claimed: true }]);
    expect(await startQueuedTurn('s', deps)).toMatchObject({ turn: 't-2' });
  });
});
