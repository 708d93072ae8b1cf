import {
  type CallResult,
  INLINE_CALL_BYTES,
  type LoopState,
  type ModelStepOutput,
} from '@agentstep/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import type { Model } from '../model/model.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { InMemoryOutcomeStore } from '../outcomes/in-memory-outcome-store.js';
import type { CallRef, OutcomeStore, StoredOutcome } from '../outcomes/outcome-store.js';
import { defineTool } from '../tools/define-tool.js';
import { demoTools } from '../tools/demo-tools.js';
import { createToolset } from '../tools/toolset.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { closeBatch } from './close-batch.js';
import { failTurn } from './fail-turn.js';
import { finishTurn } from './finish-turn.js';
import { invokeTool } from './invoke-tool.js';
import { modelStep } from './model-step.js';
import { recordToolFailure } from './record-tool-failure.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };
let runs = 0;
const counted = defineTool({
  name: 'count',
  description: 'Counts its runs.',
  input: z.object({}),
  handler: () => ++runs,
});
const countedIdempotent = defineTool({
  name: 'count_again',
  description: 'Counts its runs; running it again is safe.',
  input: z.object({}),
  idempotent: true,
  handler: () => ++runs,
});
/** A tool that marks what it was given, as a handler may: its arguments are its own to change. */
const marking = defineTool({
  name: 'mark',
  description: 'Marks its data as seen.',
  input: z.object({ data: z.unknown() }),
  handler: ({ data }) => {
    Object.assign(data as object, { seen: true });
    return data;
  },
});
const toolset = createToolset([...demoTools, counted, countedIdempotent, marking]);

function setup(script: ConstructorParameters<typeof ScriptedModel>[0]) {
  const log = new InMemoryEventLog();
  const outcomes = new InMemoryOutcomeStore();
  const model = new ScriptedModel(script);
  const deps = {
    log,
    outcomes,
    usage: new InMemoryUsageLedger(log),
    model,
    clock,
    toolset,
    tools: toolset.descriptions,
    targetOf: (tool: string) => (tool === 'count' ? 'counter-function' : 'tools-function'),
    sequentialTools: new Set(['count']),
  };
  return deps;
}

async function begin(deps: ReturnType<typeof setup>, prompt = 'go', turn = 't1'): Promise<LoopState> {
  await submitTurn({ session: 's1', turn, prompt }, deps);
  return startTurn({ session: 's1', turn, maxSteps: 5, stepsPerExecution: 2 }, deps);
}

/** Runs a model step's calls the way the RunTools map does: concurrently, each on its own. */
async function runTools(step: ModelStepOutput, deps: ReturnType<typeof setup>): Promise<void> {
  await Promise.all(
    step.calls.map((call) =>
      invokeTool({ ...call, session: 's1', turn: step.turn, batch: step.batch }, deps),
    ),
  );
}

const firstCall = (step: ModelStepOutput) => step.calls[0] ?? expect.unreachable('the step has no call');

const batchOf =
  '<execute>[{"name": "echo", "args": {"text": "a"}}, {"name": "fail", "args": {"message": "boom"}}]</execute>';

beforeEach(() => {
  runs = 0;
});

describe('modelStep', () => {
  it('appends the step with batch id and positions, and hands on each call with its place', async () => {
    const deps = setup([`<think>plan</think>Doing it.${batchOf}`]);
    const step = await modelStep(await begin(deps), deps);
    expect(step).toMatchObject({ batch: 't1.1', count: 2, next: 'tools', concurrency: 10 });
    const events = await deps.log.read('s1');
    expect(step.calls).toEqual([
      { position: 0, seq: 4, target: 'tools-function', approval: null, call: events[3]?.event.content },
      { position: 1, seq: 5, target: 'tools-function', approval: null, call: events[4]?.event.content },
    ]);
    expect(events.map(({ seq, batch, position, event }) => [seq, event.type, batch, position])).toEqual([
      [1, 'user', undefined, undefined],
      [2, 'think', 't1.1', undefined],
      [3, 'respond', 't1.1', undefined],
      [4, 'call', 't1.1', 0],
      [5, 'call', 't1.1', 1],
    ]);
    expect(deps.model.calls[0]?.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(deps.model.calls[0]?.stopSequences).toEqual(['</execute>', '<end>']);
  });

  it('C3 a re-delivered step calls no model and returns the same output; the log is unchanged', async () => {
    const deps = setup([batchOf, 'never reached']);
    const state = await begin(deps);
    const first = await modelStep(state, deps);
    const log = JSON.stringify(await deps.log.read('s1'));
    expect(await modelStep(state, deps)).toEqual(first);
    expect(deps.model.calls).toHaveLength(1);
    expect(JSON.stringify(await deps.log.read('s1'))).toBe(log);
  });

  it('A9 a reply without calls finishes the turn', async () => {
    const deps = setup(['All done.<end>']);
    expect(await modelStep(await begin(deps), deps)).toMatchObject({ calls: [], count: 0, next: 'finish' });
  });

  it('A6 a body with no positions records one execute failure and goes on to results', async () => {
    const deps = setup(['<execute>{"name": "echo"}</execute>']);
    const step = await modelStep(await begin(deps), deps);
    expect(step).toMatchObject({ calls: [], count: 1, next: 'results' });
    await closeBatch(step, deps);
    const [result] = (await deps.log.read('s1')).slice(-1);
    expect(JSON.parse(result?.event.content ?? '')).toEqual([
      { tool: 'execute', status: 'failure', content: expect.stringContaining('must be a JSON array') },
    ]);
  });

  it('B3 a session that asks for sequential execution gets one call at a time', async () => {
    const deps = setup([batchOf]);
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
    const state = await startTurn({ session: 's1', turn: 't1', toolExecution: 'sequential' }, deps);
    expect((await modelStep(state, deps)).concurrency).toBe(1);
  });

  it('B3 a batch that calls a sequential tool runs in order', async () => {
    const deps = setup([
      '<execute>[{"name": "count", "args": {}}, {"name": "echo", "args": {"text": "x"}}]</execute>',
    ]);
    const step = await modelStep(await begin(deps), deps);
    expect(step.concurrency).toBe(1);
    expect(step.calls.map((call) => call.target)).toEqual(['counter-function', 'tools-function']);
  });
});

describe('modelStep exactly once (decision 0013)', () => {
  const used = { inputTokens: 120, outputTokens: 30 };

  it.each([
    ['a blank output (asked again in the next step, A12)', '  ', 'model'],
    ['an invalid <execute> body', '<execute>not json</execute>', 'results'],
    ['a thought, then an invalid <execute> body', '<think>hmm</think><execute>not json</execute>', 'results'],
  ])('a step re-delivered after %s calls the model once and is counted once', async (_case, output, next) => {
    const deps = setup([{ chunks: [output], usage: used }, 'never reached']);
    const state = await begin(deps);
    const first = await modelStep(state, deps);
    const log = JSON.stringify(await deps.log.read('s1'));
    expect(await modelStep(state, deps)).toEqual(first);
    expect(first).toMatchObject({ calls: [], next });
    expect(deps.model.calls).toHaveLength(1);
    expect(JSON.stringify(await deps.log.read('s1'))).toBe(log);
    expect((await deps.usage.list('s1')).map((entry) => [entry.batch, entry.usage.outputTokens])).toEqual([
      [first.batch, 30],
    ]);
    const failures = next === 'results' ? [{ tool: 'execute', status: 'failure' }] : [undefined];
    expect(await deps.outcomes.list('s1', first.batch, 1)).toMatchObject(failures);
  });

  it('a crash between the append and the batch failure’s outcome: the next delivery stores it, calling no model', async () => {
    const deps = setup(['<execute>not json</execute>', 'never reached']);
    let crashes = 1;
    const crashing: OutcomeStore = {
      put: (call, outcome) =>
        crashes-- > 0 ? Promise.reject(new Error('The function died.')) : deps.outcomes.put(call, outcome),
      get: (call) => deps.outcomes.get(call),
      list: (session, batch, count) => deps.outcomes.list(session, batch, count),
      markStarted: (call) => deps.outcomes.markStarted(call),
      started: (call) => deps.outcomes.started(call),
    };
    const state = await begin(deps);
    await expect(modelStep(state, { ...deps, outcomes: crashing })).rejects.toThrow('The function died.');
    expect(await deps.outcomes.get({ session: 's1', batch: 't1.1', position: 0 })).toBeUndefined();
    const step = await modelStep(state, { ...deps, outcomes: crashing });
    expect(step).toMatchObject({ calls: [], count: 1, next: 'results' });
    expect(deps.model.calls).toHaveLength(1);
    expect(await deps.usage.list('s1')).toHaveLength(1);
    expect(await deps.outcomes.get({ session: 's1', batch: step.batch, position: 0 })).toMatchObject({
      tool: 'execute',
      status: 'failure',
      content: expect.stringContaining('not valid JSON'),
    });
  });

  it('C3 deliveries racing with different answers both hand on the step the log kept', async () => {
    const answers = [batchOf, '<execute>[{"name": "echo", "args": {"text": "other"}}]</execute>'];
    const varying: Model = {
      id: 'varying',
      async *stream() {
        yield answers.shift() ?? 'no more answers';
      },
    };
    const deps = setup([]);
    const state = await begin(deps);
    const racing = { ...deps, model: varying };
    const [first, second] = await Promise.all([modelStep(state, racing), modelStep(state, racing)]);
    expect(answers).toEqual([]);
    expect(second).toEqual(first);
    const calls = (await deps.log.read('s1')).filter((stored) => stored.event.type === 'call');
    expect(first.calls.map((call) => call.seq)).toEqual(calls.map((stored) => stored.seq));
    expect(await deps.usage.list('s1')).toHaveLength(1);
  });
});

describe('invokeTool', () => {
  it('B4 runs each call once; a re-delivered invocation returns the stored outcome', async () => {
    const deps = setup(['<execute>[{"name": "count", "args": {}}]</execute>']);
    const step = await modelStep(await begin(deps), deps);
    const call = { ...firstCall(step), session: 's1', turn: 't1', batch: step.batch };
    const stored = { tool: 'count', status: 'success', ms: expect.any(Number), content: 1 };
    expect(await invokeTool(call, deps)).toEqual({ position: 0, status: 'success', outcome: stored });
    expect(await invokeTool(call, deps)).toEqual({ position: 0, status: 'success', outcome: stored });
    expect(runs).toBe(1);
    expect(await deps.outcomes.get({ session: 's1', batch: step.batch, position: 0 })).toEqual({
      tool: 'count',
      status: 'success',
      ms: expect.any(Number),
      content: 1,
    });
  });

  it("runs an idempotent tool's call with no read first: a redelivery runs it again, and the first outcome stays", async () => {
    const deps = setup(['<execute>[{"name": "count_again", "args": {}}]</execute>']);
    const step = await modelStep(await begin(deps), deps);
    const call = { ...firstCall(step), session: 's1', turn: 't1', batch: step.batch };
    const reads: string[] = [];
    const outcomes = deps.outcomes;
    const watched = {
      ...deps,
      outcomes: {
        put: (ref: CallRef, outcome: StoredOutcome) => outcomes.put(ref, outcome),
        markStarted: (ref: CallRef) => outcomes.markStarted(ref),
        started: (ref: CallRef) => outcomes.started(ref),
        list: (session: string, batch: string, count: number) => outcomes.list(session, batch, count),
        get: (ref: CallRef) => {
          reads.push(`${ref.batch}/${ref.position}`);
          return outcomes.get(ref);
        },
      },
    };
    const first = { tool: 'count_again', status: 'success', ms: expect.any(Number), content: 1 };
    expect(await invokeTool(call, watched)).toEqual({ position: 0, status: 'success', outcome: first });
    // Run again, the put keeps (and gives back) the first outcome.
    expect(await invokeTool(call, watched)).toEqual({ position: 0, status: 'success', outcome: first });
    expect(reads).toEqual([]);
    expect(runs).toBe(2);
    expect(await outcomes.get({ session: 's1', batch: step.batch, position: 0 })).toMatchObject({
      content: 1,
    });
  });

  it('gives the tool arguments of its own to change, not the checked call the readers share', async () => {
    const deps = setup(['<execute>[{"name": "mark", "args": {"data": {"n": 1}}}]</execute>']);
    const step = await modelStep(await begin(deps), deps);
    const call = { ...firstCall(step), session: 's1', turn: 't1', batch: step.batch, count: 1 };
    expect(await invokeTool(call, deps)).toMatchObject({
      status: 'success',
      outcome: { content: { n: 1, seen: true } },
    });
  });

  it('runs a call too large for its map item from the log', async () => {
    const large = 'x'.repeat(INLINE_CALL_BYTES);
    const deps = setup([`<execute>[{"name": "echo", "args": {"text": "${large}"}}]</execute>`]);
    const step = await modelStep(await begin(deps), deps);
    expect(firstCall(step).call).toBeNull();
    const call = { ...firstCall(step), session: 's1', turn: 't1', batch: step.batch };
    // Too large to carry back through the map: AdvanceTurn reads it.
    expect(await invokeTool(call, deps)).toEqual({ position: 0, status: 'success', outcome: null });
    const outcome = await deps.outcomes.get({ session: 's1', batch: step.batch, position: 0 });
    expect(outcome).toMatchObject({ tool: 'echo', status: 'success', content: large });
  });

  it.each([
    [
      'B1 an unknown tool',
      '{"name": "reed", "args": {}}',
      "Unknown tool 'reed'. Available: echo, sleep, fail, blob, count",
    ],
    ['B1 wrong types', '{"name": "count", "args": {"n": 1}}', 'unknown argument n'],
    ['B1 a missing argument', '{"name": "echo", "args": {}}', 'text: required'],
    [
      'B2 an identity argument',
      '{"name": "echo", "args": {"text": "x", "session_id": "s2"}}',
      'identity is supplied by the runtime',
    ],
    ['A6 an invalid element', '{"name": "echo", "args": [1]}', 'must be an object, received an array'],
  ])('%s fails without running tool code', async (_rule, element, message) => {
    const deps = setup([`<execute>[${element}]</execute>`]);
    const step = await modelStep(await begin(deps), deps);
    await runTools(step, deps);
    const outcome = await deps.outcomes.get({ session: 's1', batch: step.batch, position: 0 });
    expect(outcome).toMatchObject({ status: 'failure', content: expect.stringContaining(message) });
    expect(runs).toBe(0);
  });
});

describe('closeBatch', () => {
  it('B5 appends one result in call order and moves the loop on', async () => {
    const deps = setup([batchOf]);
    const step = await modelStep(await begin(deps), deps);
    await runTools(step, deps);
    const { state: next } = await closeBatch(step, deps);
    expect(next).toEqual({
      session: 's1',
      turn: 't1',
      toolExecution: 'parallel',
      maxSteps: 5,
      stepsPerExecution: 2,
      repeatedCalls: 3,
      stepsWithoutProgress: 10,
      step: 1,
      turnSteps: 1,
      executionSteps: 1,
      executionCalls: 2,
      budget: {},
      startedAt: clock.now(),
      request: null,
      next: 'model',
    });
    const result = (await deps.log.read('s1')).at(-1);
    expect(result).toMatchObject({ seq: 4, batch: 't1.1', event: { type: 'result' } });
    expect(result?.event).toMatchObject({
      payload: { tools_executed: 2, success_count: 1, failure_count: 1 },
    });
  });

  it('logs the outcomes the calls carried back without reading the store, and reads it when one did not', async () => {
    const closeWith = async (carry: (result: CallResult) => CallResult) => {
      const deps = setup([batchOf]);
      const step = await modelStep(await begin(deps), deps);
      const results = await Promise.all(
        step.calls.map((call) =>
          invokeTool({ ...call, session: 's1', turn: 't1', batch: step.batch, count: step.count }, deps),
        ),
      );
      const lists: string[] = [];
      const outcomes = deps.outcomes;
      // The same store, each of its lists noted.
      const listed = {
        ...deps,
        outcomes: new Proxy(outcomes, {
          get: (target, name) =>
            name === 'list'
              ? (...args: Parameters<typeof outcomes.list>) => {
                  lists.push(args[1]);
                  return outcomes.list(...args);
                }
              : Reflect.get(target, name, target),
        }),
      };
      await closeBatch({ ...step, outcomes: results.map(carry) }, listed);
      return { lists, result: (await deps.log.read('s1')).at(-1)?.event.content };
    };
    const carried = await closeWith((result) => result);
    expect(carried.lists).toEqual([]);
    const oneRead = await closeWith((result) =>
      result.position === 1 ? { ...result, outcome: null } : result,
    );
    expect(oneRead.lists).toEqual(['t1.1']);
    expect(carried.result).toEqual(oneRead.result);
  });

  it('B4 gives a call with no stored outcome a failure result', async () => {
    const deps = setup([batchOf]);
    const step = await modelStep(await begin(deps), deps);
    await closeBatch(step, deps);
    const [first] = JSON.parse((await deps.log.read('s1')).at(-1)?.event.content ?? '');
    expect(first).toEqual({
      tool: 'echo',
      status: 'failure',
      content: expect.stringContaining('produced no result'),
    });
  });

  it.each([
    [{ turnSteps: 4, executionSteps: 0 }, 'limit'],
    [{ turnSteps: 0, executionSteps: 1 }, 'continue'],
    [{ turnSteps: 1, executionSteps: 0 }, 'model'],
    [{ turnSteps: 1, executionSteps: 0, executionCalls: 17_000 }, 'continue'],
    [{ turnSteps: 1, executionSteps: 0, executionCalls: 2_000 }, 'model'],
  ])('after %j goes to %s', async (counters, next) => {
    // A script plays by the turn's step: this one is step turnSteps + 1 of its turn.
    const deps = setup(Array.from({ length: counters.turnSteps + 1 }, () => '<execute>[]</execute>'));
    const step = await modelStep({ ...(await begin(deps)), ...counters }, deps);
    expect((await closeBatch(step, deps)).state.next).toBe(next);
  });
});

describe('recordToolFailure', () => {
  it("B4 records the tool function's own error message", async () => {
    const deps = setup([batchOf]);
    const step = await modelStep(await begin(deps), deps);
    const call = {
      ...step.calls[0],
      session: 's1',
      turn: 't1',
      batch: step.batch,
      position: 0,
      seq: 2,
      target: 'x',
    };
    const cause = JSON.stringify({ errorType: 'Error', errorMessage: 'Task timed out after 30.00 seconds' });
    await recordToolFailure({ ...call, error: { Error: 'Lambda.Unknown', Cause: cause } }, deps);
    expect(await deps.outcomes.get({ session: 's1', batch: step.batch, position: 0 })).toEqual({
      tool: 'echo',
      status: 'failure',
      content: "The echo tool's function failed: Lambda.Unknown: Task timed out after 30.00 seconds",
    });
  });
});

describe('finishTurn and failTurn', () => {
  it('frees the session, so the next turn can start, and its context holds the first turn', async () => {
    const deps = setup(['Answer.']);
    const first = await begin(deps, 'one', 't1');
    await modelStep(first, deps);
    expect(await finishTurn(first, deps)).toEqual({ session: 's1', turn: 't1', status: 'finished' });
    const second = await begin(deps, 'two', 't2');
    expect(second.step).toBe(1);
    await modelStep(second, deps);
    // The second turn plays its script from the first element: step 1 of the session, 0 of the turn.
    expect(deps.model.calls[1]).toMatchObject({ step: 1, turnStep: 0 });
    expect(deps.model.calls[1]?.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'Answer.' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('says why a turn stopped at its step limit', async () => {
    const deps = setup(['x']);
    const output = await finishTurn({ ...(await begin(deps)), next: 'limit' }, deps);
    expect(output).toMatchObject({
      status: 'limit',
      message: expect.stringContaining('after 5 model steps'),
    });
  });

  it('B4 a failed turn leaves no call without a result, and frees the session', async () => {
    const deps = setup([batchOf]);
    const step = await modelStep(await begin(deps), deps);
    const output = await failTurn(
      { ...step, error: { Error: 'States.Timeout', Cause: 'took too long' } },
      deps,
    );
    expect(output).toEqual({
      session: 's1',
      turn: 't1',
      status: 'failed',
      message: 'States.Timeout: took too long',
    });
    const events = await deps.log.read('s1');
    const result = JSON.parse(events.find((stored) => stored.event.type === 'result')?.event.content ?? '');
    expect(result.map((item: { status: string }) => item.status)).toEqual(['failure', 'failure']);
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn_end', payload: { status: 'failed' } });
    await deps.log.acquireTurn('s1', 'next-turn');
  });
});

describe('usage and budgets', () => {
  const used = { inputTokens: 120, outputTokens: 30 };
  const costing = (text: string) => ({ chunks: [text], usage: used });

  it('records each step’s usage in the ledger, with its latency and cost at the model’s price', async () => {
    const deps = { ...setup([costing(batchOf)]), prices: { scripted: { input: 2, output: 10 } } };
    const step = await modelStep(await begin(deps), deps);
    expect(await deps.usage.list('s1')).toEqual([
      {
        session: 's1',
        batch: step.batch,
        model: 'scripted',
        at: clock.now(),
        latencyMs: 0,
        usage: { ...used, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: (120 * 2 + 30 * 10) / 1_000_000,
      },
    ]);
  });

  it('C3 a re-delivered step records no second usage', async () => {
    const deps = setup([costing(batchOf)]);
    const state = await begin(deps);
    await modelStep(state, deps);
    await modelStep(state, deps);
    expect(await deps.usage.list('s1')).toHaveLength(1);
  });

  it('a spent token budget ends the turn before the next model step and says which budget', async () => {
    const deps = setup([costing(batchOf), costing('Done.')]);
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
    const state = await startTurn({ session: 's1', turn: 't1', budget: { maxTokens: 100 } }, deps);
    const first = await modelStep(state, deps);
    expect(first.next).toBe('tools');
    await runTools(first, deps);
    const second = await modelStep((await closeBatch(first, deps)).state, deps);
    expect(second).toMatchObject({
      next: 'limit',
      calls: [],
      limit: expect.stringContaining('150 of 100 tokens'),
    });
    expect(deps.model.calls).toHaveLength(1);
    expect(await finishTurn(second, deps)).toMatchObject({ status: 'limit', message: second.limit });
  });

  it('a cost budget spans the session’s turns', async () => {
    const deps = {
      ...setup([costing('One.'), costing('Two.')]),
      prices: { scripted: { input: 1000, output: 0 } },
    };
    const budget = { maxCostUsd: 0.1 };
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
    const first = await modelStep(await startTurn({ session: 's1', turn: 't1', budget }, deps), deps);
    await finishTurn(first, deps);
    await submitTurn({ session: 's1', turn: 't2', prompt: 'again' }, deps);
    const second = await modelStep(await startTurn({ session: 's1', turn: 't2', budget }, deps), deps);
    expect(second).toMatchObject({ next: 'limit', limit: expect.stringContaining('$0.1200 of $0.1') });
  });

  it('a wall-clock budget counts the turn’s time, carried across executions', async () => {
    let now = 1_000_000;
    const deps = { ...setup([batchOf, 'Done.']), clock: { now: () => now } };
    await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
    const state = await startTurn({ session: 's1', turn: 't1', budget: { maxWallSeconds: 3 } }, deps);
    const first = await modelStep(state, deps);
    await runTools(first, deps);
    const { state: next } = await closeBatch(first, deps);
    now += 5_000;
    const continued = await startTurn({ ...next, startedAt: next.startedAt, step: next.step }, deps);
    expect(continued.startedAt).toBe(1_000_000);
    expect(await modelStep(continued, deps)).toMatchObject({
      next: 'limit',
      limit: expect.stringContaining('5.0 s of 3 s'),
    });
  });
});
