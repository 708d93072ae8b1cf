import { bearerNameTenant } from '@agentstep/api';
import { inMemoryApiDeps, stepIntoApprovals } from '@agentstep/api/testing';
import type { EngineEvent, TurnRun } from '@agentstep/local';
import { type ApprovalDecisionBody, type Compaction, STATE_NAMES } from '@agentstep/protocol';
import {
  decideApproval,
  inMemoryStores,
  modelStepKey,
  type NewEvent,
  type SessionSource,
  submitTurn,
} from '@agentstep/runtime';
import { readUntil } from '@agentstep/runtime/testing';
import { describe, expect, it } from 'vitest';
import type { ApprovalQuestion } from '../approvals/approval-listener.js';
import { type MemoryIo, memoryIo } from '../io/memory-io.js';
import { JsonRunView } from './json-run-view.js';
import { describeCompaction, describeMetric, LiveRunView } from './live-run-view.js';
import type { RunView } from './run-view.js';

const at = 1_700_000_000_000;
const exited = (name: string, output: object = {}): EngineEvent => ({
  type: 'StateExited',
  state: { name, output },
});
/** A compaction of events 1–2 (the user message and a step's results), summarized. */
const COMPACTION: Compaction = {
  upToSeq: 2,
  summary: 'The user asked to go; nothing ran yet.',
  tokensBefore: 7950,
  tokensAfter: 1830,
  model: 'openai:gpt-4o',
  strategy: 'summarize',
  turns: 1,
  calls: 0,
};
const { model: _, ...UNNAMED } = COMPACTION;
const run: TurnRun = {
  output: {
    session: 's',
    turn: 't',
    status: 'limit',
    answer: '',
    usage: { input: 1230, output: 0 },
    message: 'The token budget is spent: 1230 of 1000 tokens used.',
  },
  stats: {
    executions: 1,
    stateTransitions: 6,
    modelSteps: 1,
    toolCalls: 1,
    maxStatePayloadBytes: 300,
    wallMs: 40,
  },
};

/** One model step as the engine and the model present it to a view: streamed, logged, measured. */
async function playStep(
  View: typeof LiveRunView | typeof JsonRunView,
  mode: 'token' | 'event',
  {
    color = true,
    callEnd = STATE_NAMES.invokeTool,
    outcome = { position: 0, status: 'success' },
  }: { color?: boolean; callEnd?: string; outcome?: object } = {},
) {
  const stores = inMemoryStores();
  await submitTurn({ session: 's', turn: 't', prompt: 'go' }, { ...stores, clock: { now: () => at } });
  const io = memoryIo({ color });
  const view: RunView = new View(io, { ...stores, session: 's', afterSeq: 1, afterMetrics: 0 }, mode);
  view.onEvent({ type: 'StateEntered', state: { name: 'ModelStep' } });
  for (const chunk of [
    '<think>plan',
    ' it</think>Hello',
    ' there<execute>[{"name": "echo", "args": {}}]</execute>',
  ])
    view.onModelChunk(0, chunk);
  const timestamp = at / 1000;
  await stores.log.append({
    session: 's',
    turn: 't',
    key: modelStepKey('t.1'),
    events: [
      { batch: 't.1', event: { type: 'think', content: 'plan it', timestamp } },
      { batch: 't.1', event: { type: 'respond', content: 'Hello there', timestamp } },
      {
        batch: 't.1',
        position: 0,
        event: { type: 'call', content: '{"name": "echo", "args": {}}', timestamp },
      },
    ],
    note: {
      model: 'openai:gpt-4o',
      at,
      latencyMs: 250,
      usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 800, cacheWriteTokens: 0 },
      costUsd: 0.0042,
    },
  });
  view.onEvent(exited('ModelStep'));
  view.onEvent(exited(callEnd, outcome));
  await view.finish(run);
  return io.out.join('');
}

describe('LiveRunView', () => {
  it('streams thinking (dimmed) and prose, then the calls, the step’s metric, outcomes and why it stopped', async () => {
    const out = await playStep(LiveRunView, 'token');
    const order = [
      '● model step 1',
      '\u001b[2m  thinking: \u001b[22m\u001b[2mplan\u001b[22m\u001b[2m it\u001b[22m',
      '  Hello there\n',
      '  → #0 echo {}',
      '1,200 tokens in (800 cached), 30 out · 250 ms · $0.0042 (session $0.0042)',
      '  ✓ #0 echo success',
      'Stopped: The token budget is spent',
    ].map((text) => out.indexOf(text));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(out.match(/Hello there/g)).toHaveLength(1);
  });

  it('says why a call failed: the first line of its error, at most 160 characters', async () => {
    const failed = (content: string) => ({
      position: 0,
      status: 'failure',
      outcome: { tool: 'echo', status: 'failure', content },
    });
    const short = await playStep(LiveRunView, 'event', {
      outcome: failed('Error: boom\n    at handler (agent.ts:3:9)'),
    });
    expect(short).toContain('  ✗ #0 echo failure: Error: boom\n');
    const long = await playStep(LiveRunView, 'event', { outcome: failed('x'.repeat(500)) });
    expect(long).toContain(`  ✗ #0 echo failure: ${'x'.repeat(159)}…\n`);
    // RecordToolFailure's outcome: the tool's function failed outright.
    const crashed = await playStep(LiveRunView, 'event', {
      callEnd: STATE_NAMES.recordToolFailure,
      outcome: failed("The echo tool's function failed: Sandbox.Timedout"),
    });
    expect(crashed).toContain("  ✗ #0 echo failure: The echo tool's function failed: Sandbox.Timedout\n");
  });

  it('writes no ANSI escape where stdout takes no colour (a pipe, NO_COLOR)', async () => {
    const out = await playStep(LiveRunView, 'token', { color: false });
    expect(out).toContain('  thinking: plan it');
    expect(out).not.toContain('\u001b');
  });

  it('sums the run up in words that agree with their numbers', async () => {
    const out = await playStep(LiveRunView, 'event');
    expect(out).toContain('\n1 model step, 1 tool call, 6 state transitions in 1 execution, 40 ms\n');
    const io = memoryIo();
    const view = new LiveRunView(
      io,
      { ...inMemoryStores(), session: 's', afterSeq: 0, afterMetrics: 0 },
      'event',
    );
    const stats = { ...run.stats, modelSteps: 3, toolCalls: 4, executions: 2 };
    await view.finish({ ...run, stats });
    expect(io.out.join('')).toContain(
      '\n3 model steps, 4 tool calls, 6 state transitions in 2 executions, 40 ms\n',
    );
  });

  it('shows the results logged before a step ahead of what the step streams, even when the step logs first', async () => {
    const stores = inMemoryStores();
    const clock = { now: () => at };
    await submitTurn({ session: 's', turn: 't', prompt: 'go' }, { ...stores, clock });
    const io = memoryIo();
    const view = new LiveRunView(io, { ...stores, session: 's', afterSeq: 1, afterMetrics: 0 }, 'token');
    const result = {
      type: 'result' as const,
      content: '[]',
      timestamp: 1,
      payload: { tools_executed: 0, success_count: 0, failure_count: 0 },
    };
    await stores.log.append({
      session: 's',
      turn: 't',
      key: 'results',
      events: [{ batch: 't.1', event: result }],
    });
    view.onModelChunk(1, 'Done.');
    await stores.log.append({
      session: 's',
      turn: 't',
      key: 'model:t.2',
      events: [{ batch: 't.2', event: { type: 'respond', content: 'Done.', timestamp: 1 } }],
    });
    view.onEvent(exited('AdvanceTurn'));
    await view.finish({ ...run, output: { ...run.output, status: 'done', message: 'The turn finished.' } });
    const out = io.out.join('');
    expect(out.indexOf('results: 0 succeeded')).toBeLessThan(out.indexOf('● model step 1'));
    expect(out.match(/Done\./g)).toHaveLength(1);
  });

  it.each(['token', 'event'] as const)(
    'in %s mode shows a compaction logged before a step on a dimmed line ahead of the step',
    async (mode) => {
      const stores = inMemoryStores();
      await submitTurn({ session: 's', turn: 't', prompt: 'go' }, { ...stores, clock: { now: () => at } });
      const io = memoryIo({ color: true });
      const view = new LiveRunView(io, { ...stores, session: 's', afterSeq: 1, afterMetrics: 0 }, mode);
      const append = (key: string, events: NewEvent[]) =>
        stores.log.append({ session: 's', turn: 't', key, events });
      const result = {
        type: 'result' as const,
        content: '[]',
        timestamp: 1,
        payload: { tools_executed: 0, success_count: 0, failure_count: 0 },
      };
      await append('results', [{ batch: 't.1', event: result }]);
      const content = 'Compacted the context.';
      await append('compaction', [
        { event: { type: 'compacted', content, timestamp: 1, payload: COMPACTION } },
      ]);
      view.onModelChunk(1, 'Done.');
      await append('model:t.2', [
        { batch: 't.2', event: { type: 'respond', content: 'Done.', timestamp: 1 } },
      ]);
      view.onEvent(exited('ModelStep'));
      await view.finish({ ...run, output: { ...run.output, status: 'done', message: 'The turn finished.' } });
      const out = io.out.join('');
      const line =
        '\u001b[2m  context compacted: 7,950 → 1,830 tokens (events 1–2 summarized by openai:gpt-4o)\u001b[22m\n';
      expect(out.match(/context compacted/g)).toHaveLength(1);
      expect(out.indexOf('results: 0 succeeded')).toBeLessThan(out.indexOf(line));
      expect(out.indexOf(line)).toBeLessThan(out.indexOf('● model step'));
      expect(out.indexOf('● model step')).toBeLessThan(out.indexOf('Done.'));
    },
  );

  it('in event mode shows the logged think and respond once the step is over', async () => {
    const out = await playStep(LiveRunView, 'event');
    expect(out).toContain(
      '\n● model step 1\n\u001b[2m  thinking: plan it\u001b[22m\n  Hello there\n  → #0 echo {}',
    );
  });
});

describe('describeMetric', () => {
  it('says a step’s usage is unknown when its provider reported none, rather than no tokens', () => {
    const payload = { model: 'openai:m', batch: 't.1', latency_ms: 40, cache_read: 0, cache_write: 0 };
    const metric = (extra: object) => ({
      type: 'metric' as const,
      step: { input: 0, output: 0 },
      total: { input: 0, output: 0 },
      timestamp: 1,
      payload: { ...payload, ...extra },
    });
    expect(describeMetric(metric({ usage: 'unknown' }))).toBe(
      '40 ms, usage unknown (the provider reported none)',
    );
    expect(describeMetric(metric({}))).toBe('40 ms, no token usage reported');
    expect(describeMetric(metric({ purpose: 'compaction' }))).toBe(
      'compaction: 40 ms, no token usage reported',
    );
  });
});

describe('describeCompaction', () => {
  it.each([
    ['a summary by its model', COMPACTION, '7,950 → 1,830 tokens (events 1–2 summarized by openai:gpt-4o)'],
    ['a summary whose model is not known', UNNAMED, '7,950 → 1,830 tokens (events 1–2 summarized)'],
    ['events left out', { ...UNNAMED, strategy: 'drop' }, '7,950 → 1,830 tokens (events 1–2 left out)'],
  ] satisfies Array<[string, Compaction, string]>)('says what became of %s', (_, compaction, line) => {
    expect(describeCompaction(compaction)).toBe(line);
  });
});

describe('JsonRunView', () => {
  const lines = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));

  it('prints the logged events with their seq, a metric per step and an error when a budget stopped the turn', async () => {
    const printed = lines(await playStep(JsonRunView, 'event'));
    expect(printed.map((line) => [line.type, line.seq])).toEqual([
      ['think', 2],
      ['respond', 3],
      ['call', 4],
      ['metric', undefined],
      ['error', undefined],
    ]);
    expect(printed[3]).toEqual({
      type: 'metric',
      step: { input: 1200, output: 30 },
      total: { input: 1200, output: 30 },
      timestamp: at / 1000,
      payload: {
        model: 'openai:gpt-4o',
        batch: 't.1',
        latency_ms: 250,
        cache_read: 800,
        cache_write: 0,
        cost_usd: 0.0042,
        total_cost_usd: 0.0042,
      },
    });
  });

  it('prints a compaction as its logged event, with its seq', async () => {
    const stores = inMemoryStores();
    await submitTurn({ session: 's', turn: 't', prompt: 'go' }, { ...stores, clock: { now: () => at } });
    const io = memoryIo();
    const view = new JsonRunView(io, { ...stores, session: 's', afterSeq: 1, afterMetrics: 0 }, 'token');
    const event = { type: 'compacted' as const, content: 'Compacted.', timestamp: 1, payload: COMPACTION };
    await stores.log.append({ session: 's', turn: 't', key: 'compaction', events: [{ event }] });
    view.onEvent(exited('ModelStep'));
    await view.finish({ ...run, output: { ...run.output, status: 'done', message: 'The turn finished.' } });
    expect(lines(io.out.join(''))).toEqual([{ seq: 2, ...event }]);
  });

  it('--mode token prints thinking and prose as they stream instead of the whole logged events', async () => {
    const printed = lines(await playStep(JsonRunView, 'token'));
    expect(printed.map((line) => [line.type, line.content, line.seq])).toEqual([
      ['think', 'plan', undefined],
      ['think', ' it', undefined],
      ['respond', 'Hello', undefined],
      ['respond', ' there', undefined],
      ['call', '{"name": "echo", "args": {}}', 4],
      ['metric', undefined, undefined],
      ['error', run.output.message, undefined],
    ]);
  });
});

describe('the run views on calls that wait for approval', () => {
  /** A turn whose one model step made two `echo` calls that wait for approval, seen by `view`. */
  async function waitingStep(makeView: (source: SessionSource) => RunView) {
    const deps = inMemoryApiDeps(bearerNameTenant);
    await submitTurn({ session: 's', turn: 't', prompt: 'Echo twice' }, deps);
    const view = makeView({ ...deps, session: 's', afterSeq: 1, afterMetrics: 0 });
    const { approvals } = await stepIntoApprovals(deps, { session: 's', turn: 't' }, [
      ['echo', { text: 'a' }],
      ['echo', { text: 'b' }],
    ]);
    view.onEvent(exited(STATE_NAMES.modelStep));
    const decide = (approval: string, body: ApprovalDecisionBody) =>
      decideApproval({ session: 's', approval, by: 'pat', body }, deps);
    return { view, first: approvals[0] ?? '', second: approvals[1] ?? '', decide };
  }

  /** What the view has printed, once `holds` is true of it: the view reads the log in the background. */
  const printed = (io: MemoryIo, holds: (out: string) => boolean) =>
    readUntil(async () => io.out.join(''), holds);

  it('says how to decide each waiting call, then each decision as soon as AwaitApproval exits', async () => {
    const io = memoryIo();
    const heard: string[] = [];
    const listener = {
      onApprovalRequested: ({ id, tool, args }: ApprovalQuestion) =>
        heard.push(`requested ${id} ${tool} ${JSON.stringify(args)}`),
      onApprovalSettled: (id: string) => heard.push(`settled ${id}`),
    };
    const { view, first, second, decide } = await waitingStep(
      (source) => new LiveRunView(io, source, 'event', listener),
    );
    const asked = [
      '  → #0 echo {"text":"a"}',
      '  → #1 echo {"text":"b"}',
      `  ⏸ #0 echo {"text":"a"} waits for approval (id ${first}): agentstep approve s ${first} [--deny]`,
      `  ⏸ #1 echo {"text":"b"} waits for approval (id ${second}): agentstep approve s ${second} [--deny]`,
    ].join('\n');
    await printed(io, (out) => out.includes('⏸ #1'));
    expect(io.out.join('')).toContain(asked);
    // InvokeTool leaves a waiting call without an outcome: nothing to say of it until its decision.
    view.onEvent(exited(STATE_NAMES.invokeTool, { position: 0 }));
    await decide(first, { decision: 'approve', args: { text: 'edited' } });
    view.onEvent(exited(STATE_NAMES.awaitApproval));
    await decide(second, { decision: 'deny', reason: 'nope' });
    view.onEvent(exited(STATE_NAMES.awaitApproval));
    await printed(io, (out) => out.includes('✗ #1'));
    expect(io.out.join('')).toMatch(
      /\n {2}✓ #0 echo approved by pat with \{"text":"edited"\}\n {2}✗ #1 echo denied by pat: nope\n$/,
    );
    expect(io.out.join('')).not.toContain('✗ #0');
    expect(heard).toEqual([
      `requested ${first} echo {"text":"a"}`,
      `requested ${second} echo {"text":"b"}`,
      `settled ${first}`,
      `settled ${second}`,
    ]);
  });

  it('--json prints the approval events as soon as AwaitApproval exits', async () => {
    const io = memoryIo();
    const { view, first, decide } = await waitingStep((source) => new JsonRunView(io, source, 'event'));
    await decide(first, { decision: 'approve' });
    view.onEvent(exited(STATE_NAMES.awaitApproval));
    await printed(io, (out) => out.includes('"status":"approved"'));
    const approvals = io.out
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === 'approval');
    expect(approvals.map(({ payload }) => [payload.id, payload.status, payload.by])).toEqual([
      [first, 'requested', undefined],
      [expect.any(String), 'requested', undefined],
      [first, 'approved', 'pat'],
    ]);
    expect(approvals.every(({ seq }) => typeof seq === 'number')).toBe(true);
  });
});
