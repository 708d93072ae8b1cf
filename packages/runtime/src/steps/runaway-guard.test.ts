import type { LoopState } from '@agentstep/protocol';
import { canonicalJson } from '@agentstep/protocol/node';
import { describe, expect, it } from 'vitest';
import { inMemoryStores } from '../in-memory-stores.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { closeBatch } from './close-batch.js';
import { modelStep } from './model-step.js';
import type { ModelStepDeps } from './model-step-deps.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };
const call = (name: string, args: Record<string, unknown>) =>
  `<execute>${JSON.stringify([{ name, args }])}</execute>`;

function setup(script: string[]) {
  const model = new ScriptedModel(script);
  const deps: ModelStepDeps = { ...inMemoryStores(), clock, model, tools: [], targetOf: () => 'tools' };
  return { model, deps };
}

async function begin(
  deps: ModelStepDeps,
  limits: { repeatedCalls?: number; stepsWithoutProgress?: number } = {},
) {
  await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
  return startTurn({ session: 's', turn: 't' }, { ...deps, limits });
}

/**
 * Takes `count` model steps, each call's outcome `succeeded(step)` (a success, else no outcome: the
 * batch closes with a failure), and returns the state before the next step.
 */
async function take(
  deps: ModelStepDeps,
  state: LoopState,
  count: number,
  succeeded = (_step: number) => true,
) {
  let next = state;
  for (let step = 1; step <= count; step++) {
    const taken = await modelStep(next, deps);
    expect(taken.next).toBe('tools');
    if (succeeded(step)) {
      const outcome = { tool: 'echo', status: 'success' as const, content: 'ok' };
      await deps.outcomes.put({ session: 's', batch: taken.batch, position: 0 }, outcome);
    }
    next = (await closeBatch(taken, deps)).state;
  }
  return next;
}

describe('canonicalJson', () => {
  it('ignores key order at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 0 }], a: 1 })).toBe('{"a":1,"b":[2,{"c":0,"d":1}]}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe('runaway guards (decision 0030)', () => {
  it('RepeatedCall: the same call a third time (keys in any order) stops the turn before a 4th model step', async () => {
    const script = [
      call('echo', { a: 1, b: 2 }),
      call('echo', { b: 2, a: 1 }),
      call('echo', { a: 1, b: 2 }),
      'never',
    ];
    const { model, deps } = setup(script);
    const state = await take(deps, await begin(deps), 3);
    const stopped = await modelStep(state, deps);
    expect(stopped).toMatchObject({ next: 'limit', calls: [], count: 0 });
    expect(stopped.limit).toMatch(
      /^RepeatedCall: echo was called 3 times with the same arguments \{"a":1,"b":2\}\. /,
    );
    expect(model.calls).toHaveLength(3);
    // A redelivered step decides the same from the log, and pays for no model step either.
    expect(await modelStep(state, deps)).toEqual(stopped);
    expect(model.calls).toHaveLength(3);
  });

  it('counts only the same arguments: other calls in between do not stop the turn', async () => {
    const script = [
      call('echo', { text: 'a' }),
      call('echo', { text: 'b' }),
      call('echo', { text: 'a' }),
      'Done.<end>',
    ];
    const { deps } = setup(script);
    const state = await take(deps, await begin(deps), 3);
    expect(await modelStep(state, deps)).toMatchObject({ next: 'finish' });
  });

  it('limits.repeatedCalls: 5 allows five calls before stopping', async () => {
    const same = call('echo', { text: 'hi' });
    const { model, deps } = setup([same, same, same, same, same, 'never']);
    const state = await take(deps, await begin(deps, { repeatedCalls: 5 }), 5);
    expect((await modelStep(state, deps)).limit).toMatch(/^RepeatedCall: echo was called 5 times/);
    expect(model.calls).toHaveLength(5);
  });

  it('NoProgress: stepsWithoutProgress steps in a row without a successful call stop the turn', async () => {
    const script = [0, 1, 2].map((index) => call('fail', { index }));
    const { model, deps } = setup(script);
    const state = await take(deps, await begin(deps, { stepsWithoutProgress: 2 }), 2, () => false);
    const stopped = await modelStep(state, deps);
    expect(stopped).toMatchObject({ next: 'limit' });
    expect(stopped.limit).toMatch(
      /^NoProgress: the turn took 2 model steps in a row without a successful call\. /,
    );
    expect(model.calls).toHaveLength(2);
  });

  it('a successful call resets the count of steps without progress', async () => {
    const script = [...[0, 1, 2].map((index) => call('fail', { index })), 'Done.<end>'];
    const { deps } = setup(script);
    const start = await begin(deps, { stepsWithoutProgress: 2 });
    const state = await take(deps, start, 3, (step) => step === 2);
    expect(await modelStep(state, deps)).toMatchObject({ next: 'finish' });
  });

  it('a loop state from before the guards gets the defaults (3 repeated calls)', async () => {
    const same = call('echo', { text: 'hi' });
    const { deps } = setup([same, same, same, 'never']);
    const { repeatedCalls: _, stepsWithoutProgress: __, ...older } = await begin(deps);
    const state = await take(deps, older, 3);
    expect(state.repeatedCalls).toBeUndefined();
    expect((await modelStep(state, deps)).limit).toMatch(/^RepeatedCall: echo was called 3 times/);
  });
});
