import { ERROR_NAMES, type LoopState, resultEvent, STEP_CAPS } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { inMemoryStores } from '../in-memory-stores.js';
import type { Model, ModelRequest } from '../model/model.js';
import { ContextTooLongError } from '../model/model-errors.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { metricEvents } from '../usage/session-spend.js';
import { closeBatch } from './close-batch.js';
import { failTurn } from './fail-turn.js';
import { modelStep } from './model-step.js';
import type { ModelStepDeps } from './model-step-deps.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };

function setup(model: Model): ModelStepDeps {
  return { ...inMemoryStores(), clock, model, tools: [], targetOf: () => 'tools-function' };
}

async function begin(deps: ModelStepDeps, maxSteps = 5): Promise<LoopState> {
  await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
  return startTurn({ session: 's', turn: 't', maxSteps, stepsPerExecution: 5 }, deps);
}

const typesOf = async (deps: ModelStepDeps) => (await deps.log.read('s')).map(({ event }) => event.type);

/** A model that streams `count` one-line thoughts, one chunk each, and counts the chunks read. */
function thinker(count: number) {
  const read = { chunks: 0 };
  const model: Model = {
    id: 'thinker',
    async *stream(_request: ModelRequest) {
      for (let index = 0; index < count; index++) {
        read.chunks++;
        yield `<think>thought ${index}</think>`;
      }
      yield '<execute>[{"name": "echo", "args": {"text": "late"}}]</execute>';
    },
  };
  return { model, read };
}

describe('modelStep: the cap on events per step (decision 0012)', () => {
  it('stores the first events up to the cap, stops reading the model, and answers with one failure naming the cap', async () => {
    const { model, read } = thinker(3 * STEP_CAPS.events);
    const deps = setup(model);
    const step = await modelStep(await begin(deps), deps);
    // No call runs: the batch came after the cap. The loop goes on to record the failure.
    expect(step).toMatchObject({ batch: 't.1', calls: [], count: 1, next: 'results' });
    expect(read.chunks).toBe(STEP_CAPS.events + 1);
    await closeBatch(step, deps);
    const events = await deps.log.read('s');
    const thoughts = events.filter(({ event }) => event.type === 'think');
    expect(thoughts).toHaveLength(STEP_CAPS.events);
    expect(thoughts.at(-1)?.event.content).toBe(`thought ${STEP_CAPS.events - 1}`);
    expect(events.map(({ event }) => event.type).filter((type) => type !== 'think')).toEqual([
      'user',
      'result',
    ]);
    expect(JSON.parse(events.at(-1)?.event.content ?? '')).toEqual([
      {
        tool: 'execute',
        status: 'failure',
        content: expect.stringContaining(
          `more than ${STEP_CAPS.events} thoughts, prose fragments and calls, the protocol's cap per model step`,
        ),
      },
    ]);
  });

  it('takes a step of exactly the cap’s events whole', async () => {
    const { model } = thinker(STEP_CAPS.events - 1);
    const deps = setup(model);
    const step = await modelStep(await begin(deps), deps);
    expect(step).toMatchObject({ count: 1, next: 'tools' });
    expect(await typesOf(deps)).toHaveLength(1 + STEP_CAPS.events);
  });
});

describe('modelStep: the cap on bytes per step (decision 0012)', () => {
  it('stops reading the model past the cap, keeps what was finished before, and answers with one failure naming the cap', async () => {
    const read = { chunks: 0 };
    const mebibyte = 'x'.repeat(1024 * 1024);
    const model: Model = {
      id: 'flood',
      async *stream() {
        for (const part of ['<think>Plan.</think><execute>[{"name": "echo", "args": {"text": "', mebibyte]) {
          read.chunks++;
          yield part;
        }
        for (let more = 0; more < 40; more++) {
          read.chunks++;
          yield mebibyte;
        }
        yield '"}}]</execute>';
      },
    };
    const deps = setup(model);
    const step = await modelStep(await begin(deps), deps);
    expect(step).toMatchObject({ batch: 't.1', calls: [], count: 1, next: 'results' });
    expect(read.chunks).toBe(1 + STEP_CAPS.outputBytes / mebibyte.length);
    await closeBatch(step, deps);
    const events = await deps.log.read('s');
    expect(events.map(({ event }) => [event.type, event.content?.slice(0, 5)])).toEqual([
      ['user', 'go'],
      ['think', 'Plan.'],
      ['result', expect.any(String)],
    ]);
    expect(JSON.parse(events.at(-1)?.event.content ?? '')).toEqual([
      {
        tool: 'execute',
        status: 'failure',
        content: expect.stringContaining(
          `more than ${STEP_CAPS.outputBytes} bytes of text, the protocol's cap per model step`,
        ),
      },
    ]);
  });
});

describe('modelStep: a step in which the model returned nothing (A12)', () => {
  it.each([
    ['nothing', ''],
    ['only blanks', ' \n '],
    ['only <end>', '<end>'],
    ['only a model-written <results> block (A8)', '<results>[]</results>'],
  ])(
    'hands on `model`, and the next step asks again on the same context: %s, then an answer',
    async (_, empty) => {
      const model = new ScriptedModel([empty, 'The answer.<end>']);
      const deps = setup(model);
      const first = await modelStep(await begin(deps), deps);
      expect(first).toMatchObject({
        batch: 't.1',
        step: 1,
        turnSteps: 1,
        executionSteps: 1,
        count: 0,
        next: 'model',
      });
      expect(await modelStep(first, deps)).toMatchObject({ batch: 't.2', next: 'finish' });
      expect(model.calls.map((call) => call.turnStep)).toEqual([0, 1]);
      expect(model.calls[1]?.messages).toEqual(model.calls[0]?.messages);
      expect(await typesOf(deps)).toEqual(['user', 'respond']);
      // Each model call is a step of its own, with its own usage.
      expect((await deps.usage.list('s')).map((entry) => entry.batch)).toEqual(['t.1', 't.2']);
    },
  );

  it('C3 re-delivered steps ask no model again and hand on the same outputs', async () => {
    const model = new ScriptedModel(['', 'The answer.<end>']);
    const deps = setup(model);
    const state = await begin(deps);
    const first = await modelStep(state, deps);
    const second = await modelStep(first, deps);
    const log = JSON.stringify(await deps.log.read('s'));
    expect(await modelStep(state, deps)).toEqual(first);
    expect(await modelStep(first, deps)).toEqual(second);
    expect(model.calls).toHaveLength(2);
    expect(JSON.stringify(await deps.log.read('s'))).toBe(log);
  });

  it('fails the turn with EmptyModelOutput when the model returns nothing again', async () => {
    const model = new ScriptedModel(['', '<end>', 'never asked']);
    const deps = setup(model);
    const again = await modelStep(await begin(deps), deps);
    const failure = { name: ERROR_NAMES.emptyModelOutput, message: expect.stringContaining('t.1 of turn t') };
    await expect(modelStep(again, deps)).rejects.toMatchObject(failure);
    // A re-delivery fails the same way, asking no model.
    const error: Error = await modelStep(again, deps).then(
      () => expect.unreachable('the step fails'),
      (caught: Error) => caught,
    );
    expect(error).toMatchObject(failure);
    expect(model.calls).toHaveLength(2);
    // As the state machine's Catch hands it to FailTurn.
    const caught = { Error: error.name, Cause: JSON.stringify({ errorMessage: error.message }) };
    await failTurn({ session: 's', turn: 't', error: caught }, deps);
    const end = (await deps.log.read('s')).at(-1)?.event;
    expect(end).toMatchObject({
      type: 'turn_end',
      content: expect.stringContaining('returned nothing (no thought, prose or call) in step t.1'),
      payload: { status: 'failed', error: 'EmptyModelOutput' },
    });
  });

  it('ends the turn at its step limit when no step is left to ask again', async () => {
    const model = new ScriptedModel(['', 'never asked']);
    const deps = setup(model);
    const step = await modelStep(await begin(deps, 1), deps);
    expect(step).toMatchObject({
      batch: 't.1',
      next: 'limit',
      limit: expect.stringContaining('no step was left'),
    });
    expect(model.calls).toHaveLength(1);
  });

  it.each([
    ['an empty batch (A9)', '<execute>[]</execute>'],
    ['a thought alone', '<think>hm</think>'],
  ])('does not count %s as nothing: the turn ends after one model call', async (_, output) => {
    const model = new ScriptedModel([output, 'never asked']);
    const deps = setup(model);
    expect(await modelStep(await begin(deps), deps)).toMatchObject({ batch: 't.1', next: 'finish' });
    expect(model.calls).toHaveLength(1);
  });
});

describe('modelStep: a provider that refuses the request as too long (decision 0035)', () => {
  /**
   * A model that refuses its first `refusals` step requests as too long, then answers; it
   * summarizes on request, spending 3,000 input and 100 output tokens.
   */
  function refusing(refusals: number) {
    const requests: ModelRequest[] = [];
    const model: Model = {
      id: 'refusing',
      async *stream(request: ModelRequest) {
        requests.push(request);
        if (request.purpose === 'compaction') {
          yield { inputTokens: 3_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
          yield 'The user wants blobs echoed.';
          return;
        }
        const steps = requests.filter((sent) => sent.purpose !== 'compaction').length;
        if (steps <= refusals) throw new ContextTooLongError('prompt is too long');
        yield 'Done.<end>';
      },
    };
    return { model, requests };
  }

  /** A turn that has taken `steps` steps, each a call of `blob` answered with 2 KB. */
  async function turnOf(deps: ModelStepDeps, steps: number): Promise<LoopState> {
    const state = await begin(deps, 50);
    for (let step = 1; step <= steps; step++) {
      const batch = `t.${step}`;
      const call = {
        type: 'call' as const,
        // Other arguments each time: the runaway guard stops a turn that repeats a call.
        content: JSON.stringify({ name: 'blob', args: { step } }),
        timestamp: 1,
        payload: { index: 0 },
      };
      const result = {
        ...resultEvent([{ tool: 'blob', status: 'success', content: 'x'.repeat(2_000) }]),
        timestamp: 1,
      };
      await deps.log.append({
        session: 's',
        turn: 't',
        key: `s${step}`,
        events: [{ event: call, batch, position: 0 }],
      });
      await deps.log.append({ session: 's', turn: 't', key: `r${step}`, events: [{ event: result, batch }] });
    }
    return { ...state, step: steps, turnSteps: steps };
  }

  it('compacts once and takes the step again, and the turn goes on', async () => {
    const { model, requests } = refusing(1);
    const deps = { ...setup(model), context: { windowTokens: 8_000 } };
    const step = await modelStep(await turnOf(deps, 6), deps);
    expect(step).toMatchObject({ batch: 't.7', next: 'finish' });
    // The refused step, the compaction's summary requests (the older part in pieces), the step again.
    const purposes = requests.map((request) => request.purpose ?? 'step');
    expect(purposes).toEqual(['step', ...purposes.slice(1, -1).map(() => 'compaction'), 'step']);
    expect(purposes.length).toBeLessThanOrEqual(4);
    const types = await typesOf(deps);
    expect(types.filter((type) => type === 'compacted')).toHaveLength(1);
    expect(types.at(-1)).toBe('respond');
    expect(requests.at(-1)?.messages[0]?.content).toContain('The user wants blobs echoed.');
  });

  it('ends the turn with ContextTooLong when the provider refuses the compacted request too, within three requests', async () => {
    const { model, requests } = refusing(Number.POSITIVE_INFINITY);
    const deps = { ...setup(model), context: { windowTokens: 8_000 } };
    await expect(modelStep(await turnOf(deps, 6), deps)).rejects.toMatchObject({
      name: ERROR_NAMES.contextTooLong,
    });
    expect(requests.length).toBeLessThanOrEqual(1 + 3);
  });

  it("counts a compaction's summary in the ledger, the metrics and the budget, marked as compaction", async () => {
    const { model } = refusing(0);
    const deps = { ...setup(model), context: { windowTokens: 8_000 } };
    const state = { ...(await turnOf(deps, 10)), budget: { maxTokens: 1_000 } };
    expect(await modelStep(state, deps)).toMatchObject({ batch: 't.11', next: 'finish' });
    const ledger = await deps.usage.list('s');
    expect(ledger.map(({ batch, purpose, usage }) => [batch, purpose, usage.inputTokens])).toEqual([
      ['t.11', 'compaction', 3_000],
      ['t.11', undefined, 0],
    ]);
    expect(metricEvents(ledger)[0]).toMatchObject({
      step: { input: 3_000, output: 100 },
      payload: { purpose: 'compaction' },
    });
    // The summary spent the session's token budget: the next step takes no model call.
    const next = await modelStep({ ...state, step: 11, turnSteps: 11 }, deps);
    expect(next).toMatchObject({ next: 'limit', limit: expect.stringMatching(/token/i) });
  });

  it('ends the turn with ContextTooLong at once when no window is known to compact to', async () => {
    const { model, requests } = refusing(Number.POSITIVE_INFINITY);
    const deps = setup(model);
    await expect(modelStep(await turnOf(deps, 2), deps)).rejects.toMatchObject({
      name: ERROR_NAMES.contextTooLong,
    });
    expect(requests).toHaveLength(1);
  });
});
