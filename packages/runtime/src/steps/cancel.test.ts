import type { LoopState } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import type { Model, ModelRequest } from '../model/model.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { InMemoryOutcomeStore } from '../outcomes/in-memory-outcome-store.js';
import { cancelTurn } from '../session/cancel-turn.js';
import type { ExecutionStarter } from '../session/execution-starter.js';
import { readUntil } from '../testing/read-until.js';
import { demoTools } from '../tools/demo-tools.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { cancelRequested } from './cancel-requested.js';
import { closeStoppedTurn } from './close-stopped-turn.js';
import { failTurn } from './fail-turn.js';
import { finishTurn } from './finish-turn.js';
import { modelStep } from './model-step.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const clock = { now: () => 1_700_000_000_000 };
const twoSleeps =
  '<execute>[{"name": "sleep", "args": {"ms": 5000}}, {"name": "sleep", "args": {"ms": 5000}}]</execute>';

/** `model`, running `during` before it streams its answer: a cancel that comes mid-step. */
function interrupted(model: Model, during: () => unknown): Model {
  return {
    id: model.id,
    async *stream(request: ModelRequest) {
      await during();
      yield* model.stream(request);
    },
  };
}

function setup(model: Model) {
  const log = new InMemoryEventLog();
  return {
    log,
    outcomes: new InMemoryOutcomeStore(),
    usage: new InMemoryUsageLedger(log),
    model,
    clock,
    tools: demoTools.map((tool) => ({ name: tool.name, description: tool.description, parameters: {} })),
    targetOf: () => 'tools-function',
  };
}

async function begin(deps: ReturnType<typeof setup>): Promise<LoopState> {
  await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
  return startTurn({ session: 's', turn: 't', maxSteps: 5 }, deps);
}

/** A cancelled turn's log when its batch of two calls was logged: failures, one `cancelled`, its end. */
const CANCELLED_BATCH = ['user', 'call', 'call', 'result', 'cancelled', 'turn_end'];

const types = async (deps: ReturnType<typeof setup>) =>
  (await deps.log.read('s')).map((stored) => stored.event.type);

describe('a cancelled turn', () => {
  it('takes no model step once asked to stop, and FinishTurn ends it as cancelled', async () => {
    const model = new ScriptedModel([twoSleeps]);
    const deps = setup(model);
    const state = await begin(deps);
    await deps.log.requestCancel('s', 't');
    const step = await modelStep(state, deps);
    expect(step).toMatchObject({ next: 'cancelled', calls: [], count: 0 });
    expect(model.calls).toHaveLength(0);
    expect(await finishTurn({ ...step, maxSteps: 5 }, deps)).toMatchObject({ status: 'cancelled' });
    expect(await types(deps)).toEqual(['user', 'cancelled', 'turn_end']);
    expect(await deps.log.holder('s')).toBeUndefined();
  });

  it('runs no batch when the cancel came while the model streamed: each call gets one failure', async () => {
    let deps: ReturnType<typeof setup> | undefined;
    deps = setup(interrupted(new ScriptedModel([twoSleeps]), () => deps?.log.requestCancel('s', 't')));
    const step = await modelStep(await begin(deps), deps);
    expect(step).toMatchObject({ next: 'cancelled', calls: [] });
    await finishTurn({ ...step, maxSteps: 5 }, deps);
    const events = await deps.log.read('s');
    expect(events.map((stored) => stored.event.type)).toEqual(CANCELLED_BATCH);
    expect(JSON.parse(events[3]?.event.content ?? '')).toEqual([
      { tool: 'sleep', status: 'failure', content: 'The turn was cancelled before this call ran.' },
      { tool: 'sleep', status: 'failure', content: 'The turn was cancelled before this call ran.' },
    ]);
    expect(events[5]?.event).toMatchObject({ payload: { turn: 't', status: 'cancelled' } });
  });

  it('cancelTurn closes a turn whose execution never ends it: stopped, batch answered, session free', async () => {
    const deps = setup(new ScriptedModel([twoSleeps]));
    const step = await modelStep(await begin(deps), deps);
    expect(step.next).toBe('tools');
    const stopped: string[] = [];
    const starter: ExecutionStarter = {
      start: async () => 'never',
      stop: async ({ turn }) => {
        stopped.push(turn);
      },
    };
    expect(await cancelTurn('s', { ...deps, starter, graceMs: 0 })).toEqual({ turn: 't' });
    expect(stopped).toEqual(['t']);
    const events = await deps.log.read('s');
    expect(events.map((stored) => stored.event.type)).toEqual(CANCELLED_BATCH);
    expect(JSON.parse(events[3]?.event.content ?? '')).toHaveLength(2);
    expect(events[5]?.event).toMatchObject({ payload: { status: 'cancelled' } });
    expect(await deps.log.holder('s')).toBeUndefined();
    await expect(cancelTurn('s', { ...deps, starter })).rejects.toMatchObject({ name: 'NoTurnRunning' });
  });

  it('cancelTurn stops nothing when the loop ends the turn itself within the grace period', async () => {
    const deps = setup(new ScriptedModel([twoSleeps]));
    const state = await begin(deps);
    const starter: ExecutionStarter = {
      start: async () => 'running',
      stop: async () => expect.unreachable('the turn ended itself'),
    };
    // However long the steps take: only the loop may end this turn, which `stop` proves.
    const cancelled = cancelTurn('s', { ...deps, starter, graceMs: Number.POSITIVE_INFINITY });
    // Once the flag is set, the loop's next model step sees it and FinishTurn ends the turn.
    await readUntil(
      () => cancelRequested(deps.log, 's', 't'),
      (asked) => asked,
    );
    await finishTurn({ ...(await modelStep(state, deps)), maxSteps: 5 }, deps);
    expect(await cancelled).toEqual({ turn: 't' });
    expect(await types(deps)).toEqual(['user', 'cancelled', 'turn_end']);
  });
});

describe('the stored `cancelled` event (C1)', () => {
  /** A starter whose executions never end their turns by themselves: the canceller closes them. */
  const deadStarter: ExecutionStarter = { start: async () => 'never', stop: async () => {} };

  it('is stored exactly once, after the batch’s results and before turn_end, however many close the turn', async () => {
    const deps = setup(new ScriptedModel([twoSleeps]));
    const step = await modelStep(await begin(deps), deps);
    // Cancel asked twice at once; each stops the execution and closes the turn.
    const cancels = [1, 2].map(() => cancelTurn('s', { ...deps, starter: deadStarter, graceMs: 0 }));
    expect(await Promise.all(cancels)).toEqual([{ turn: 't' }, { turn: 't' }]);
    const log = await deps.log.read('s');
    expect(log.map((stored) => stored.event.type)).toEqual(CANCELLED_BATCH);
    expect(log[4]).toMatchObject({
      seq: 5,
      event: { type: 'cancelled', content: 'Cancelled by the user.', timestamp: 1_700_000_000 },
    });
    expect(log[4]?.batch).toBeUndefined();
    // Then the starter closes the turn of the stopped execution, and the loop's steps are
    // re-delivered: every write is keyed, nothing is written again.
    await closeStoppedTurn({ session: 's', turn: 't' }, 'The execution was stopped.', deps);
    await finishTurn({ ...step, next: 'cancelled', maxSteps: 5 }, deps);
    await failTurn({ ...step, error: { Error: 'States.Runtime' } }, deps);
    expect(await deps.log.read('s')).toEqual(log);
  });

  it('is never shown to the model (D3): the next turn sees the cancelled batch’s failures only', async () => {
    const model = new ScriptedModel([twoSleeps]);
    const deps = setup(model);
    await modelStep(await begin(deps), deps);
    await cancelTurn('s', { ...deps, starter: deadStarter, graceMs: 0 });
    await submitTurn({ session: 's', turn: 't2', prompt: 'again' }, deps);
    await modelStep(await startTurn({ session: 's', turn: 't2', maxSteps: 5 }, deps), deps);
    const shown = JSON.stringify(model.calls[1]?.messages);
    expect(shown).toContain('The turn was cancelled before this call finished.');
    expect(shown).not.toContain('Cancelled by the user.');
  });
});

describe('failTurn on a turn asked to stop', () => {
  it('ends it cancelled, not failed: its failure was the cancel’s doing (a stopped execution it waited for)', async () => {
    const deps = setup(new ScriptedModel([twoSleeps]));
    const step = await modelStep(await begin(deps), deps);
    await deps.log.requestCancel('s', 't');
    const output = await failTurn(
      { ...step, error: { Error: 'States.TaskFailed', Cause: 'child aborted' } },
      deps,
    );
    expect(output).toMatchObject({ status: 'cancelled' });
    const events = await deps.log.read('s');
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
    const result = events.find(({ event }) => event.type === 'result');
    expect(JSON.parse(result?.event.content ?? '[]')).toHaveLength(2);
  });
});
