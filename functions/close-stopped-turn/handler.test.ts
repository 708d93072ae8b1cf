import { inMemoryStores, modelStep, ScriptedModel, startTurn, submitTurn } from '@agentstep/runtime';
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
  return { stores, handler: createHandler({ ...stores, clock }) };
}

/** The event EventBridge delivers when an execution of the loop stops. */
function statusChange(status: string, input: unknown, error?: string) {
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
      executionArn: 'arn:aws:states:us-east-1:123456789012:execution:Loop:t',
      status,
      input: JSON.stringify(input),
      ...(error ? { error, cause: 'Task timed out after 330 seconds' } : {}),
    },
  };
}

describe('CloseStoppedTurn (EventBridge target)', () => {
  it('closes a turn whose execution timed out: one failure per open call, turn_end failed saying how', async () => {
    const { stores, handler } = await turnWithOpenBatch();
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
  });

  it('closes a turn that was asked to stop as cancelled when its execution was aborted; a repeat writes nothing', async () => {
    const { stores, handler } = await turnWithOpenBatch();
    await stores.log.requestCancel('s', 't');
    const aborted = statusChange('ABORTED', { session: 's', turn: 't' });
    await handler(aborted, context);
    await handler(aborted, context);
    const events = await stores.log.read('s');
    expect(events.map((stored) => stored.event.type)).toEqual(['user', 'call', 'call', 'result', 'turn_end']);
    expect(events[4]?.event).toMatchObject({ payload: { status: 'cancelled' } });
  });

  it('refuses an event whose execution input names no turn, before touching the log', async () => {
    const { stores, handler } = await turnWithOpenBatch();
    await expect(handler(statusChange('FAILED', { session: 's' }), context)).rejects.toMatchObject({
      name: 'ParseError',
    });
    expect(await stores.log.holder('s')).toMatchObject({ turn: 't' });
  });
});
