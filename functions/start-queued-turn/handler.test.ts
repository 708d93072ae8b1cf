import type { TurnInput, TurnResult } from '@agentstep/protocol';
import {
  type ExecutionStarter,
  endTurn,
  inMemoryStores,
  type QueuedMessage,
  storedSession,
  submitTurn,
} from '@agentstep/runtime';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createHandler } from './handler.js';

const clock = { now: () => 1_700_000_000_000 };
const context = { functionName: 'start-queued-turn', awsRequestId: 'r' } as Context;

/** In-memory stores, a starter that records what it starts, and the handler on both. */
function setup() {
  const started: TurnInput[] = [];
  const starter: ExecutionStarter = {
    start: async (input) => {
      started.push(input);
      return `arn:aws:states:us-east-1:123456789012:execution:Loop:${input.turn}`;
    },
    stop: async () => {},
  };
  const stores = inMemoryStores();
  const deps = { ...stores, clock, starter };
  return { deps, started, handler: createHandler(deps) };
}

/** A message queued for `session` behind the running turn, as the API queues it. */
function queued(turn: string, requester: { session: string; tenant?: string }): QueuedMessage {
  return {
    turn,
    prompt: `Message ${turn}`,
    queuedAt: 2,
    limits: { maxSteps: 4, budget: { maxTokens: 10_000 }, request: requester },
  };
}

/** The turn result the loop announces at a turn's end. */
function result(session: string, turn: string, tenant?: string): TurnResult {
  return {
    session,
    turn,
    status: 'done',
    answer: 'Done.',
    usage: { input: 10, output: 5 },
    message: 'The turn finished.',
    ...(tenant ? { tenant } : {}),
  };
}

/** The event EventBridge delivers when the loop announces a turn's end. */
function turnEnded(detail: unknown, detailType = 'Agent Turn Completed') {
  return {
    version: '0',
    id: 'e-1',
    'detail-type': detailType,
    source: 'agentstep',
    account: '123456789012',
    time: '2026-11-23T10:00:00Z',
    region: 'us-east-1',
    resources: [],
    detail,
  };
}

describe('StartQueuedTurn (EventBridge target)', () => {
  it("begins a free session's first queued message under its queued turn id, with its limits and requester", async () => {
    const { deps, started, handler } = setup();
    await submitTurn({ session: 's', turn: 't-1', prompt: 'First' }, deps);
    await deps.queue.enqueue('s', queued('t-2', { session: 's' }));
    await deps.queue.enqueue('s', { ...queued('t-3', { session: 's' }), queuedAt: 3 });
    await endTurn({ session: 's', turn: 't-1', status: 'done', message: 'The turn finished.' }, deps);
    await handler(turnEnded(result('s', 't-1')), context);
    expect(started).toEqual([
      { session: 's', turn: 't-2', maxSteps: 4, budget: { maxTokens: 10_000 }, request: { session: 's' } },
    ]);
    expect((await deps.log.read('s')).at(-1)?.event).toMatchObject({ type: 'user', content: 'Message t-2' });
    expect(await deps.log.holder('s')).toMatchObject({ turn: 't-2' });
    // The next waits for t-2's end.
    expect((await deps.queue.list('s')).map((message) => message.turn)).toEqual(['t-3']);
  });

  it('starts nothing while a turn still holds the session, whichever end was announced', async () => {
    const { deps, started, handler } = setup();
    await submitTurn({ session: 's', turn: 't-1', prompt: 'First' }, deps);
    await deps.queue.enqueue('s', queued('t-2', { session: 's' }));
    await handler(turnEnded({ ...result('s', 't-0'), status: 'failed' }, 'Agent Turn Failed'), context);
    expect(started).toEqual([]);
    expect((await deps.queue.list('s')).map((message) => message.turn)).toEqual(['t-2']);
    expect(await deps.log.holder('s')).toMatchObject({ turn: 't-1' });
  });

  it("starts a tenant's queued message in the session stored under the tenant's tag", async () => {
    const { deps, started, handler } = setup();
    const stored = storedSession('acme', 's');
    await deps.queue.enqueue(stored, queued('t-2', { session: 's', tenant: 'acme' }));
    // The same id without the tenant's tag is another session: its end starts nothing of acme's.
    await handler(turnEnded(result('s', 't-1')), context);
    expect(started).toEqual([]);
    await handler(turnEnded(result('s', 't-1', 'acme')), context);
    expect(started).toEqual([
      expect.objectContaining({ session: stored, turn: 't-2', request: { session: 's', tenant: 'acme' } }),
    ]);
    expect(await deps.log.holder(stored)).toMatchObject({ turn: 't-2' });
  });

  it('does nothing for an event whose detail is not a turn result', async () => {
    const { deps, started, handler } = setup();
    await deps.queue.enqueue('s', queued('t-2', { session: 's' }));
    await handler(turnEnded({ run: 'r-1', status: 'done', message: 'The run finished.' }), context);
    expect(started).toEqual([]);
    expect(await deps.queue.list('s')).toHaveLength(1);
  });

  it('throws when the execution cannot start, for EventBridge to retry; the turn ends failed in the log', async () => {
    const { deps, handler } = setup();
    const failing = createHandler({
      ...deps,
      starter: {
        start: async () => {
          throw new Error('Rate exceeded');
        },
        stop: async () => {},
      },
    });
    await deps.queue.enqueue('s', queued('t-2', { session: 's' }));
    await expect(failing(turnEnded(result('s', 't-1')), context)).rejects.toThrow('Rate exceeded');
    expect((await deps.log.read('s')).at(-1)?.event).toMatchObject({
      type: 'turn_end',
      payload: { turn: 't-2', status: 'failed' },
    });
    expect(await deps.log.holder('s')).toBeUndefined();
    // A redelivery finds the queue empty: the message left it when its turn failed to start.
    await handler(turnEnded(result('s', 't-1')), context);
    expect(await deps.queue.list('s')).toEqual([]);
  });
});
