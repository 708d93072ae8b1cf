import type { InvokeToolInput } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { InMemoryOutcomeStore } from '../outcomes/in-memory-outcome-store.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { createToolset } from '../tools/toolset.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { CANCELLED_CALL, closeStoppedTurn } from './close-stopped-turn.js';
import { invokeTool } from './invoke-tool.js';
import { modelStep } from './model-step.js';
import { recordToolFailure } from './record-tool-failure.js';
import { STARTED_WITHOUT_OUTCOME } from './run-once.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };

/** A tool whose every run is an effect, counted by the key it was given. */
function countingTool(idempotent: boolean) {
  const effects = new Map<string, number>();
  const tool = defineTool({
    name: 'charge',
    description: 'Charges a card once per key.',
    input: z.object({}),
    idempotent,
    handler: (_args, { idempotencyKey }) => {
      effects.set(idempotencyKey, (effects.get(idempotencyKey) ?? 0) + 1);
      return idempotencyKey;
    },
  });
  return { tool, effects };
}

/**
 * A session whose first model step called `charge` once (`tool`, or one that counts its effects);
 * returns that call as InvokeTool gets it.
 */
async function oneCall(idempotent = false, given?: Tool) {
  const { tool, effects } =
    given === undefined ? countingTool(idempotent) : { tool: given, effects: new Map() };
  const toolset = createToolset([tool]);
  const log = new InMemoryEventLog();
  const outcomes = new InMemoryOutcomeStore();
  const deps = {
    log,
    outcomes,
    usage: new InMemoryUsageLedger(log),
    model: new ScriptedModel(['<execute>[{"name": "charge", "args": {}}]</execute>']),
    clock,
    toolset,
    tools: toolset.descriptions,
    targetOf: () => 'tools-function',
    sequentialTools: new Set<string>(),
  };
  await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
  const step = await modelStep(await startTurn({ session: 's1', turn: 't1', maxSteps: 5 }, deps), deps);
  const call: InvokeToolInput = {
    ...(step.calls[0] as NonNullable<(typeof step.calls)[0]>),
    session: 's1',
    turn: 't1',
    batch: step.batch,
  };
  const ref = { session: 's1', batch: step.batch, position: 0 };
  return { deps, call, ref, effects };
}

/** The outcome store, its first write failing as a function that dies after the tool ran. */
function dyingOnFirstPut(outcomes: OutcomeStore): OutcomeStore {
  let died = false;
  return {
    get: (call) => outcomes.get(call),
    list: (session, batch, count) => outcomes.list(session, batch, count),
    markStarted: (call) => outcomes.markStarted(call),
    started: (call) => outcomes.started(call),
    put: (call, outcome) => {
      if (died) return outcomes.put(call, outcome);
      died = true;
      return Promise.reject(new Error('The function died.'));
    },
  };
}

describe('effect-once calls (decision 0031)', () => {
  it('gives the handler the stable key <session>:<batch>:<position>, the same on every delivery', async () => {
    const { deps, call, ref, effects } = await oneCall();
    await invokeTool(call, deps);
    await invokeTool(call, deps);
    expect([...effects]).toEqual([[`s1:${call.batch}:0`, 1]]);
    expect(await deps.outcomes.get(ref)).toEqual({
      tool: 'charge',
      status: 'success',
      content: `s1:${call.batch}:0`,
      ms: expect.any(Number),
    });
  });

  it('concurrent deliveries of a non-idempotent call run it once', async () => {
    const { deps, call, effects } = await oneCall();
    const results = await Promise.all([
      invokeTool(call, deps),
      invokeTool(call, deps),
      invokeTool(call, deps),
    ]);
    expect(new Set(results.map((result) => result.status)).size).toBe(1);
    expect([...effects.values()]).toEqual([1]);
  });

  it('a redelivery after a crash between the effect and its outcome reads outcome unknown, never a second run', async () => {
    const { deps, call, ref, effects } = await oneCall();
    const dying = { ...deps, outcomes: dyingOnFirstPut(deps.outcomes) };
    await expect(invokeTool(call, dying)).rejects.toThrow('The function died.');
    expect(await invokeTool(call, dying)).toMatchObject({ position: 0, status: 'failure' });
    expect(await deps.outcomes.get(ref)).toEqual({
      tool: 'charge',
      status: 'failure',
      ms: expect.any(Number),
      content: `outcome unknown: ${STARTED_WITHOUT_OUTCOME}`,
    });
    expect([...effects.values()]).toEqual([1]);
  });

  it('an idempotent call is run again after such a crash, and marks nothing', async () => {
    const { deps, call, ref, effects } = await oneCall(true);
    const dying = { ...deps, outcomes: dyingOnFirstPut(deps.outcomes) };
    await expect(invokeTool(call, dying)).rejects.toThrow('The function died.');
    expect(await invokeTool(call, dying)).toMatchObject({ position: 0, status: 'success' });
    expect([...effects.values()]).toEqual([2]);
    expect(await deps.outcomes.started(ref)).toBe(false);
  });

  it.each([
    ['States.Timeout', 'the tools function timed out after it may have started'],
    ['Sandbox.Timedout', 'the tools function timed out after it may have started'],
    ['Runtime.ExitError', 'the tools function failed after it may have started (Runtime.ExitError: killed)'],
  ])('RecordToolFailure after %s of a started call records outcome unknown', async (error, why) => {
    const { deps, call, ref } = await oneCall();
    await deps.outcomes.markStarted(ref);
    await recordToolFailure(
      { ...call, target: 'tools-function', error: { Error: error, Cause: 'killed' } },
      deps,
    );
    expect(await deps.outcomes.get(ref)).toEqual({
      tool: 'charge',
      status: 'failure',
      content: `outcome unknown: ${why}`,
    });
  });

  it('RecordToolFailure of a call that never started keeps the function’s own error', async () => {
    const { deps, call, ref } = await oneCall();
    await recordToolFailure({ ...call, target: 'tools-function', error: { Error: 'States.Timeout' } }, deps);
    expect(await deps.outcomes.get(ref)).toEqual({
      tool: 'charge',
      status: 'failure',
      content: "The charge tool's function failed: States.Timeout",
    });
  });

  it('stops a running call once a cancel closed its turn: its signal aborts, the close’s failure stands', async () => {
    let aborted = false;
    const waiting = defineTool({
      name: 'charge',
      description: 'Waits until it is stopped.',
      input: z.object({}),
      timeoutMs: 60_000,
      handler: (_args, { signal }) =>
        new Promise((settle) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            settle('stopped');
          }),
        ),
    });
    const { deps, call } = await oneCall(false, waiting);
    const running = invokeTool(call, deps);
    // A cancel whose grace passed: the execution stopped, the turn closed around the running call.
    await deps.log.requestCancel('s1', 't1');
    await closeStoppedTurn({ session: 's1', turn: 't1' }, 'stopped', deps);
    expect(await running).toMatchObject({ status: 'failure' });
    expect(aborted).toBe(true);
    // The batch's result, which the model reads, is the close's: the call's own outcome came later.
    const result = (await deps.log.read('s1')).find(({ event }) => event.type === 'result');
    expect(JSON.parse(result?.event.content ?? '[]')).toEqual([
      { tool: 'charge', status: 'failure', content: CANCELLED_CALL },
    ]);
  });
});
