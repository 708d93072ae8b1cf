import { ERROR_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { eventLogWith } from '../event-log/event-log-with.js';
import { inMemoryStores } from '../in-memory-stores.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { batchId } from './batch-id.js';
import type { ModelStepDeps } from './model-step-deps.js';
import { startTurn } from './start-turn.js';
import { stepOnce } from './step-once.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };

function setup() {
  const stores = inMemoryStores();
  const fallback = new ScriptedModel(['From the default model.<end>'], 'the default script', 'scripted');
  const fast = new ScriptedModel(['From the fast profile.<end>'], 'the fast script', 'openai:fast-one');
  const deps: ModelStepDeps = {
    ...stores,
    clock,
    model: fallback,
    models: { fast },
    tools: [],
    targetOf: () => 'tools-function',
  };
  return { deps, stores, fallback, fast };
}

/** Submits a turn (its user message naming `model`, if given), starts it and takes its first step. */
async function firstStep(deps: ModelStepDeps, model?: string) {
  await submitTurn({ session: 's1', turn: 't1', prompt: 'go', ...(model ? { model } : {}) }, deps);
  const state = await startTurn({ session: 's1', turn: 't1', maxSteps: 5, stepsPerExecution: 5 }, deps);
  return stepOnce(state, batchId('t1', 1), await deps.log.snapshot('s1'), deps);
}

describe('stepOnce', () => {
  it('takes the step on the profile the turn names, and notes the profile with the model', async () => {
    const { deps, stores, fallback, fast } = setup();
    const step = await firstStep(deps, 'fast');
    expect('events' in step && step.events.map(({ event }) => event.content)).toEqual([
      'From the fast profile.',
    ]);
    expect([fast.calls.length, fallback.calls.length]).toEqual([1, 0]);
    const [entry] = await stores.usage.list('s1');
    expect(entry).toMatchObject({ model: 'openai:fast-one', profile: 'fast' });
  });

  it('takes the step on the default model when the turn names no profile', async () => {
    const { deps, stores, fallback, fast } = setup();
    await firstStep(deps);
    expect([fast.calls.length, fallback.calls.length]).toEqual([0, 1]);
    const [entry] = await stores.usage.list('s1');
    expect(entry?.model).toBe('scripted');
    expect(entry?.profile).toBeUndefined();
  });

  it('reads no marker for a fresh step (the head mark tells), and a redelivery finds the step by its marker', async () => {
    const { deps, fallback } = setup();
    const markerReads: string[] = [];
    const log = eventLogWith(deps.log, {
      appended: (session, key) => {
        markerReads.push(key);
        return deps.log.appended(session, key);
      },
    });
    const counted = { ...deps, log };
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, counted);
    const state = await startTurn({ session: 's1', turn: 't1', maxSteps: 5, stepsPerExecution: 5 }, counted);
    const first = await stepOnce(state, batchId('t1', 1), await log.snapshot('s1'), counted);
    expect(markerReads).toEqual([]);
    const again = await stepOnce(state, batchId('t1', 1), await log.snapshot('s1'), counted);
    expect(markerReads).toEqual(['model:t1.1']);
    expect(fallback.calls.length).toBe(1);
    expect('events' in again && again.events).toEqual('events' in first && first.events);
  });

  it("finds a turn's first step logged after another turn took the session over, and calls no model again", async () => {
    const { deps, fallback } = setup();
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
    const state = await startTurn({ session: 's1', turn: 't1', maxSteps: 5, stepsPerExecution: 5 }, deps);
    const first = await stepOnce(state, batchId('t1', 1), await deps.log.snapshot('s1'), deps);
    // Its answer was lost; another turn takes the session over and logs a step of its own.
    await submitTurn({ session: 's1', turn: 't2', prompt: 'again', lease: { takeOver: true } }, deps);
    const other = await startTurn({ session: 's1', turn: 't2', maxSteps: 5, stepsPerExecution: 5 }, deps);
    await stepOnce(other, batchId('t2', 1), await deps.log.snapshot('s1'), {
      ...deps,
      model: new ScriptedModel(['Other.<end>']),
    });
    const retried = await stepOnce(state, batchId('t1', 1), await deps.log.snapshot('s1'), deps);
    expect(fallback.calls.length).toBe(1);
    expect('events' in retried && retried.events).toEqual('events' in first && first.events);
  });

  it('refuses a profile that is not configured, naming those that are, and logs no step', async () => {
    const { deps, fallback, fast } = setup();
    await expect(firstStep(deps, 'smart')).rejects.toMatchObject({
      name: ERROR_NAMES.unknownModelProfile,
      message: expect.stringContaining('"smart", which is not configured (configured profiles: "fast")'),
    });
    expect([fast.calls.length, fallback.calls.length]).toEqual([0, 0]);
    const types = (await deps.log.read('s1')).map(({ event }) => event.type);
    expect(types).toEqual(['user']);
  });
});
