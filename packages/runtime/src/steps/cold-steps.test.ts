import type { AdvanceTurnOutput, CallResult, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { ContextCache } from '../context/context-cache.js';
import { CachedEventLog } from '../event-log/cached-event-log.js';
import type { EventLog, SnapshotOptions } from '../event-log/event-log.js';
import { eventLogWith } from '../event-log/event-log-with.js';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import type { Model, ModelPart, ModelRequest } from '../model/model.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { InMemoryOutcomeStore } from '../outcomes/in-memory-outcome-store.js';
import { demoTools } from '../tools/demo-tools.js';
import { createToolset } from '../tools/toolset.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { advanceTurn } from './advance-turn.js';
import { invokeTool } from './invoke-tool.js';
import { modelStep } from './model-step.js';
import { startTurn } from './start-turn.js';
import { submitTurn } from './submit-turn.js';
import { TurnTallies } from './turn-tallies.js';

const clock = { now: () => 1_700_000_000_000 };
const toolset = createToolset(demoTools);
const STEPS = 60;
/** Every 9th step repeats one call: its 5th time (step 45) is one too many (`repeatedCalls: 5`). */
const REPEATED_EVERY = 9;

/** A summarizer that answers every compaction with the same summary, keeping what it was asked. */
function summarizer(): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'summarizer',
    requests,
    async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
      requests.push(request);
      yield 'They echoed numbered lines; one line came back every ninth step.';
    },
  };
}

/** Model step `step`'s reply: one echo of a numbered line, or of the line it repeats. */
function reply(step: number): string {
  const text = step % REPEATED_EVERY === 0 ? 'the same line' : `line ${step} ${'·'.repeat(80)}`;
  return `Step ${step}.<execute>[{"name":"echo","args":{"text":"${text}"}}]</execute>`;
}

/**
 * Runs one long turn with a small window (it compacts every dozen steps or so): `cold`, each model
 * step in a process that never read the session (a fresh cache of the log, nothing rendered or
 * counted before); else in one warm process. What the model was asked, the log, and the events each
 * step's read of the log gave.
 */
async function longTurn(cold: boolean) {
  const inner = new InMemoryEventLog({ clock });
  const eventsRead: number[] = [];
  const counted: EventLog = eventLogWith(inner, {
    snapshot: async (session: string, options?: SnapshotOptions) => {
      const snapshot = await inner.snapshot(session, options);
      eventsRead.push(snapshot.events.length);
      return snapshot;
    },
  });
  const warm = new CachedEventLog(counted);
  const model = new ScriptedModel(Array.from({ length: STEPS }, (_, step) => reply(step + 1)));
  const summary = summarizer();
  const shared = {
    outcomes: new InMemoryOutcomeStore(),
    usage: new InMemoryUsageLedger(inner),
    model,
    clock,
    toolset,
    tools: toolset.descriptions,
    targetOf: () => 'tools-function',
    context: { windowTokens: 1_500, strategy: 'summarize' as const, summaryModel: summary },
    limits: { repeatedCalls: 5 },
  };
  const warmCaches = { contextCache: new ContextCache(), turnTallies: new TurnTallies() };
  const depsOfStep = () =>
    cold ? { ...shared, log: new CachedEventLog(counted) } : { ...shared, log: warm, ...warmCaches };
  await submitTurn(
    { session: 's', turn: 't', prompt: 'Echo lines.', instructions: 'Be terse.' },
    depsOfStep(),
  );
  const state = await startTurn(
    { session: 's', turn: 't', maxSteps: STEPS + 5, stepsPerExecution: STEPS + 5 },
    depsOfStep(),
  );
  let step: AdvanceTurnOutput = await modelStep(state, depsOfStep());
  while (step.next === 'tools') {
    const outcomes: CallResult[] = [];
    for (const call of step.calls)
      outcomes.push(
        await invokeTool({ ...call, session: 's', turn: 't', batch: step.batch }, { ...shared, log: inner }),
      );
    step = await advanceTurn({ ...step, outcomes }, depsOfStep());
  }
  return { step, requests: model.calls, summaries: summary.requests, log: await inner.read('s'), eventsRead };
}

/** The log without the durations its calls measured (the only thing two runs may not share). */
const untimed = (log: readonly StoredEvent[]) =>
  JSON.parse(JSON.stringify(log, (key, value) => (key === 'durations_ms' ? undefined : value)));

const ofType = (log: readonly StoredEvent[], type: string) => log.filter(({ event }) => event.type === type);

describe('a model step in a process that never read the session (decision 0039)', () => {
  it('asks the model what a warm process asks, reading only from the latest compaction on', async () => {
    const warm = await longTurn(false);
    const cold = await longTurn(true);
    expect(ofType(warm.log, 'compacted').length).toBeGreaterThanOrEqual(3);
    // The turn ran away at the same step: the repeated call's earlier times were carried past the cuts.
    expect(warm.step).toMatchObject({ next: 'limit', turnSteps: 45 });
    expect(warm.step).toHaveProperty(
      'limit',
      expect.stringMatching(/^RepeatedCall: echo was called 5 times/),
    );
    expect(cold.step).toEqual(warm.step);
    expect(cold.requests).toEqual(warm.requests);
    expect(cold.summaries).toEqual(warm.summaries);
    expect(untimed(cold.log)).toEqual(untimed(warm.log));
    // The persona came from the turn's message, long cut off by then.
    expect(cold.requests.at(-1)?.system).toContain('Be terse.');
    // Each cold step read from the latest compaction on: never the whole log, once one compacted.
    const longest = Math.max(...cold.eventsRead.slice(-20));
    expect(longest).toBeLessThan(cold.log.length / 3);
  });
});
