import { ERROR_NAMES, type StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { InMemoryOutcomeStore } from '../outcomes/in-memory-outcome-store.js';
import { demoTools } from '../tools/demo-tools.js';
import { createToolset } from '../tools/toolset.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { failTurn } from './fail-turn.js';
import { finishTurn } from './finish-turn.js';
import { invokeTool } from './invoke-tool.js';
import { modelStep } from './model-step.js';
import { releaseTurn } from './release-turn.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';

const twoCalls =
  '<execute>[{"name": "echo", "args": {"text": "a"}}, {"name": "echo", "args": {"text": "b"}}]</execute>';

function setup(script: string[]) {
  let now = 1_700_000_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const toolset = createToolset(demoTools);
  const log = new InMemoryEventLog({ clock });
  return {
    log,
    outcomes: new InMemoryOutcomeStore(),
    usage: new InMemoryUsageLedger(log),
    model: new ScriptedModel(script),
    clock,
    toolset,
    tools: toolset.descriptions,
    targetOf: () => 'tools',
  };
}

/** A turn that took one model step with two calls and ran only the first of them. */
async function halfRunBatch(deps: ReturnType<typeof setup>, lease = {}) {
  await submitTurn({ session: 's', turn: 'old', prompt: 'go', lease }, deps);
  const step = await modelStep(await startTurn({ session: 's', turn: 'old' }, deps), deps);
  const [first] = step.calls;
  if (first) await invokeTool({ ...first, session: 's', turn: 'old', batch: step.batch }, deps);
  return step;
}

const turnEnds = (events: StoredEvent[]) =>
  events.flatMap((stored) => (stored.event.type === 'turn_end' ? [stored.event] : []));

describe('the turn lifecycle', () => {
  it.each([
    [{ next: 'finish' }, { status: 'done', content: 'The turn finished.' }],
    [
      { next: 'limit', limit: 'The token budget is spent.' },
      { status: 'limit', content: 'The token budget is spent.' },
    ],
  ])('finishTurn after %j ends with one terminal record and frees the session', async (how, end) => {
    const deps = setup(['Hi.']);
    await submitTurn({ session: 's', turn: 't', prompt: 'go' }, deps);
    const input = { session: 's', turn: 't', maxSteps: 5, ...how };
    await finishTurn(input, deps);
    await finishTurn(input, deps);
    const events = await deps.log.read('s');
    expect(turnEnds(events)).toEqual([
      {
        type: 'turn_end',
        content: end.content,
        payload: { turn: 't', status: end.status },
        timestamp: 1_700_000_000,
      },
    ]);
    expect(await deps.log.acquireTurn('s', 'next')).toEqual({});
  });

  it('failTurn keeps stored outcomes, fails the rest, and names the error in the terminal record', async () => {
    const deps = setup([twoCalls]);
    await halfRunBatch(deps);
    const error = { Error: ERROR_NAMES.modelAuthFailed, Cause: 'the key was refused' };
    await failTurn({ session: 's', turn: 'old', error }, deps);
    const events = await deps.log.read('s');
    const result = JSON.parse(events.find((stored) => stored.event.type === 'result')?.event.content ?? '[]');
    expect(result).toEqual([
      { tool: 'echo', status: 'success', content: 'a' },
      {
        tool: 'echo',
        status: 'failure',
        content: 'The turn failed before this call finished: ModelAuthFailed: the key was refused',
      },
    ]);
    expect(turnEnds(events).map((end) => end.payload)).toEqual([
      { turn: 'old', status: 'failed', error: 'ModelAuthFailed' },
    ]);
  });

  it('releaseTurn, the last resort, ends the turn without reading the log', async () => {
    const deps = setup([twoCalls]);
    await halfRunBatch(deps);
    const output = await releaseTurn({ session: 's', turn: 'old', error: { Error: 'Lambda.Unknown' } }, deps);
    expect(output).toMatchObject({ status: 'failed', message: expect.stringContaining('so did closing it') });
    expect(turnEnds(await deps.log.read('s'))).toHaveLength(1);
    expect(await deps.log.acquireTurn('s', 'next')).toEqual({});
  });

  it('a turn whose lease expired is closed by the next turn: one result per call, one terminal record', async () => {
    const deps = setup([twoCalls, 'Fine.']);
    await halfRunBatch(deps, { leaseMs: 60_000 });
    await expect(submitTurn({ session: 's', turn: 'new', prompt: 'again' }, deps)).rejects.toMatchObject({
      name: ERROR_NAMES.sessionBusy,
    });
    deps.clock.advance(60_001);
    expect(await submitTurn({ session: 's', turn: 'new', prompt: 'again' }, deps)).toEqual({
      previous: 'old',
    });
    const events = await deps.log.read('s');
    expect(events.map((stored) => stored.event.type)).toEqual([
      'user',
      'call',
      'call',
      'result',
      'turn_end',
      'user',
    ]);
    const result = JSON.parse(events[3]?.event.content ?? '[]');
    expect(result.map((item: { status: string }) => item.status)).toEqual(['success', 'failure']);
    expect(events[4]?.event).toMatchObject({
      payload: { turn: 'old', status: 'failed', error: 'TurnTakenOver' },
    });
    // The dead turn, come back, can write nothing, and ending it again adds no second record.
    await failTurn({ session: 's', turn: 'old', error: { Error: 'States.Timeout' } }, deps);
    expect(turnEnds(await deps.log.read('s'))).toHaveLength(1);
  });

  it('takes a live session over at once when asked to', async () => {
    const deps = setup([twoCalls]);
    await halfRunBatch(deps);
    const taken = await submitTurn(
      { session: 's', turn: 'new', prompt: 'again', lease: { takeOver: true } },
      deps,
    );
    expect(taken).toEqual({ previous: 'old' });
    expect(turnEnds(await deps.log.read('s')).map((end) => end.payload.turn)).toEqual(['old']);
  });
});
