import {
  InMemoryTurnEvents,
  inMemoryStores,
  modelStep,
  requestTurn,
  ScriptedModel,
  startTurn,
  submitTurn,
} from '@agentstep/runtime';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createHandler } from './handler.js';

const clock = { now: () => 1_700_000_000_000 };
const context = { functionName: 'close-stopped-turn', awsRequestId: 'r' } as Context;

/** A session whose turn logged a batch of two calls, then lost its execution. */
async function turnWithOpenBatch() {
  const stores = inMemoryStores();
  const deps = {
    ...stores,
    clock,
    model: new ScriptedModel([
      '<execute>[{"name": "echo", "args": {}}, {"name": "echo", "args": {}}]</execute>',
    ]),
    tools: [],
    targetOf: () => 'tools',
  };
  await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
  await modelStep(await startTurn({ session: 's', turn: 't', maxSteps: 5 }, deps), deps);
  const events = new InMemoryTurnEvents();
  return { stores, events, handler: createHandler({ ...stores, clock, events }) };
}

/** The event EventBridge delivers when an execution of the loop stops. */
function statusChange(status: string, input: unknown, error?: string, name = 't') {
  return {
    version: '0',
    id: 'e-1',
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account: '123456789012',
    time: '2026-11-23T10:00:00Z',
    region: 'us-east-1',
    resources: ['arn:aws:states:us-east-1:123456789012:execution:Loop:t'],
    detail: {
      executionArn: `arn:aws:states:us-east-1:123456789012:execution:Loop:${name}`,
      name,
      status,
      input: JSON.stringify(input),
      ...(error ? { error, cause: 'Task timed out after 330 seconds' } : {}),
    },
  };
}

describe('CloseStoppedTurn (EventBridge target)', () => {
  it('closes a turn whose execution timed out: one failure per open call, turn_end failed saying how', async () => {
    const { stores, events: announced, handler } = await turnWithOpenBatch();
    await handler(
      statusChange('TIMED_OUT', { session: 's', turn: 't', maxSteps: 5 }, 'States.Timeout'),
      context,
    );
    const events = await stores.log.read('s');
    expect(events.map((stored) => stored.event.type)).toEqual(['user', 'call', 'call', 'result', 'turn_end']);
    expect(JSON.parse(events[3]?.event.content ?? '')).toHaveLength(2);
    expect(events[4]?.event).toMatchObject({
      content: "The turn's execution timed out (States.Timeout: Task timed out after 330 seconds).",
      payload: { turn: 't', status: 'failed' },
    });
    expect(await stores.log.holder('s')).toBeUndefined();
    // Its end is announced, as the state machine would have.
    expect(announced.published).toEqual([
      expect.objectContaining({ session: 's', turn: 't', status: 'failed' }),
    ]);
  });

  it('closes a turn that was asked to stop as cancelled when its execution was aborted; a repeat writes nothing', async () => {
    const { stores, handler } = await turnWithOpenBatch();
    await stores.log.requestCancel('s', 't');
    const aborted = statusChange('ABORTED', { session: 's', turn: 't' });
    await handler(aborted, context);
    await handler(aborted, context);
    const events = await stores.log.read('s');
    const types = events.map((stored) => stored.event.type);
    expect(types).toEqual(['user', 'call', 'call', 'result', 'cancelled', 'turn_end']);
    expect(events[5]?.event).toMatchObject({ payload: { status: 'cancelled' } });
  });

  it('closes and announces a requested turn its execution started; a duplicate’s execution closes nothing', async () => {
    const stores = inMemoryStores();
    const events = new InMemoryTurnEvents();
    const handler = createHandler({ ...stores, clock, events });
    const request = { message: 'Nightly report', requestId: 'event-7' };
    const started = await requestTurn({ request, execution: 'exec-1' }, { ...stores, clock });
    await handler(statusChange('ABORTED', request, undefined, 'exec-2'), context);
    expect(events.published).toEqual([]);
    await handler(statusChange('ABORTED', request, undefined, 'exec-1'), context);
    expect(events.published).toEqual([
      expect.objectContaining({ turn: started.turn, status: 'failed', requestId: 'event-7' }),
    ]);
    expect(await stores.log.holder(started.session)).toBeUndefined();
  });

  it('closes nothing for an execution whose input names no turn', async () => {
    const { stores, events, handler } = await turnWithOpenBatch();
    await handler(statusChange('FAILED', { session: 's' }), context);
    expect(await stores.log.holder('s')).toMatchObject({ turn: 't' });
    expect(events.published).toEqual([]);
  });

  it('announces nothing for a continued execution: the turn’s first one announces its end', async () => {
    const { stores, events, handler } = await turnWithOpenBatch();
    await handler(
      statusChange('FAILED', { session: 's', turn: 't', step: 3, turnSteps: 1 }, 'Boom', 't-1'),
      context,
    );
    expect(await stores.log.holder('s')).toBeUndefined();
    expect(events.published).toEqual([]);
  });

  it('refuses an event that is not an execution status change, before touching the log', async () => {
    const { stores, handler } = await turnWithOpenBatch();
    await expect(handler({ detail: { status: 'FAILED' } }, context)).rejects.toMatchObject({
      name: 'ParseError',
    });
    expect(await stores.log.holder('s')).toMatchObject({ turn: 't' });
  });
});
