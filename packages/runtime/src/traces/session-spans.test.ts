import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { subAgentIds } from '../agents/sub-agent-ids.js';
import type { StepUsage } from '../usage/step-usage.js';
import { sessionSpans } from './session-spans.js';
import { spanIdOf, traceIdOf } from './span-ids.js';

const SESSION = 's-traces';
const AT = 1_795_956_923; // seconds, as events are stamped

/** A session's log, written in order: each event its seq, time and step (`batch`, `position`). */
function logOf(entries: Array<[PersistedEvent, { batch?: string; position?: number }?]>): StoredEvent[] {
  return entries.map(([event, where = {}], seq) => ({ session: SESSION, seq: seq + 1, ...where, event }));
}

const user = (content: string, at: number): PersistedEvent => ({ type: 'user', content, timestamp: AT + at });
const start = (turn: string, at: number): PersistedEvent => ({
  type: 'turn_start',
  content: `Turn ${turn} runs.`,
  timestamp: AT + at,
  payload: { turn, version: 'v1' },
});
const end = (turn: string, at: number, status: 'done' | 'failed' = 'done'): PersistedEvent => ({
  type: 'turn_end',
  content: status === 'done' ? 'The turn finished.' : 'The model failed.',
  timestamp: AT + at,
  payload: { turn, status, ...(status === 'failed' ? { error: 'ModelError' } : {}) },
});
const call = (name: string, args: object, index: number, at: number): PersistedEvent => ({
  type: 'call',
  content: JSON.stringify({ name, args }),
  timestamp: AT + at,
  payload: { index },
});
const result = (items: object[], durations: number[], at: number): PersistedEvent => ({
  type: 'result',
  content: JSON.stringify(items),
  timestamp: AT + at,
  payload: {
    tools_executed: items.length,
    success_count: items.length,
    failure_count: 0,
    durations_ms: durations,
  },
});
const entry = (batch: string, at: number, extra: Partial<StepUsage> = {}): StepUsage => ({
  session: SESSION,
  batch,
  model: 'openai:gpt-4o-mini',
  at: (AT + at) * 1000,
  latencyMs: 200,
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 50, cacheWriteTokens: 0 },
  ...extra,
});

/** Turn one: a batch of two calls (the second waits for approval, then fails), then an answer. */
const TURN_ONE = logOf([
  [user('Check the secret words.', 0)],
  [start('t-1', 0.01)],
  [call('echo', { text: 'alpha' }, 0, 0.3), { batch: 't-1.1', position: 0 }],
  [call('fail', { message: 'beta' }, 1, 0.3), { batch: 't-1.1', position: 1 }],
  [
    {
      type: 'approval',
      timestamp: AT + 0.3,
      payload: { id: 't-1.1.1', index: 1, status: 'requested', tool: 'fail' },
    },
    { batch: 't-1.1', position: 1 },
  ],
  [
    {
      type: 'approval',
      timestamp: AT + 2,
      payload: { id: 't-1.1.1', index: 1, status: 'approved', by: 'ann' },
    },
    { batch: 't-1.1', position: 1 },
  ],
  [
    result(
      [
        { tool: 'echo', status: 'success', content: 'alpha' },
        { tool: 'fail', status: 'failure', content: 'beta' },
      ],
      [3, 5],
      2.01,
    ),
    { batch: 't-1.1' },
  ],
  [{ type: 'respond', content: 'Alpha, and beta failed.', timestamp: AT + 2.3 }, { batch: 't-1.2' }],
  [end('t-1', 2.31)],
]);
const LEDGER = [entry('t-1.1', 0.3), entry('t-1.2', 2.3)];

function spansOf(events: StoredEvent[], ledger: StepUsage[] = LEDGER, captureContent = false) {
  return sessionSpans(SESSION, { events, entries: ledger }, { agent: 'checker', captureContent });
}

describe('sessionSpans', () => {
  it('derives a turn’s invoke_agent, a chat per model step and an execute_tool per call, in one trace', () => {
    const spans = spansOf(TURN_ONE);
    expect(spans.map(({ name }) => name)).toEqual([
      'invoke_agent checker',
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool echo',
      'execute_tool fail',
    ]);
    const [agent, ...children] = spans;
    expect(agent?.traceId).toBe(traceIdOf(SESSION, 't-1'));
    expect(agent).toMatchObject({ startMs: AT * 1000, endMs: (AT + 2.31) * 1000, kind: 'internal' });
    expect(agent?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'checker',
      'gen_ai.agent.version': 'v1',
      'gen_ai.conversation.id': SESSION,
      'gen_ai.usage.input_tokens': 200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 100,
    });
    for (const child of children) {
      expect(child.traceId).toBe(agent?.traceId);
      expect(child.parentSpanId).toBe(agent?.spanId);
    }
  });

  it('times a chat span by the ledger and says why it stopped; a call by its batch’s result', () => {
    const [, toolStep, answer, echo, fail] = spansOf(TURN_ONE);
    expect(toolStep).toMatchObject({
      kind: 'client',
      startMs: (AT + 0.3) * 1000 - 200,
      endMs: (AT + 0.3) * 1000,
      attributes: {
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.response.finish_reasons': ['tool_call'],
      },
    });
    expect(answer?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(echo).toMatchObject({ endMs: (AT + 2.01) * 1000, status: { code: 'unset' } });
    expect((echo?.endMs ?? 0) - (echo?.startMs ?? 0)).toBe(3);
    expect(echo?.attributes).toMatchObject({
      'gen_ai.tool.call.id': 't-1.1.0',
      'gen_ai.tool.type': 'function',
    });
    expect(fail?.status).toEqual({ code: 'error', message: 'the call failed' });
    expect(fail?.events.map(({ name }) => name)).toEqual(['approval requested', 'approval approved']);
  });

  it('leaves prompts, answers, arguments and results out unless content is captured', () => {
    const texts = ['Check the secret words.', 'alpha', 'beta', 'Alpha, and beta failed.'];
    const plain = JSON.stringify(spansOf(TURN_ONE));
    for (const text of texts) expect(plain).not.toContain(text);
    const [agent, , , echo, fail] = spansOf(TURN_ONE, LEDGER, true);
    expect(JSON.parse(String(agent?.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Check the secret words.' }] },
    ]);
    expect(echo?.attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"text":"alpha"}',
      'gen_ai.tool.call.result': 'alpha',
    });
    expect(fail?.status).toEqual({ code: 'error', message: 'beta' });
  });

  it('gives the same spans every time: ids from the session, the turn and what a span is of', () => {
    const once = spansOf(TURN_ONE);
    expect(spansOf(TURN_ONE)).toEqual(once);
    expect(once.map(({ spanId }) => spanId)).toEqual([
      spanIdOf(SESSION, 't-1', 'invoke_agent'),
      spanIdOf(SESSION, 't-1', 'chat t-1.1'),
      spanIdOf(SESSION, 't-1', 'chat t-1.2'),
      spanIdOf(SESSION, 't-1', 'execute_tool t-1.1.0'),
      spanIdOf(SESSION, 't-1', 'execute_tool t-1.1.1'),
    ]);
    for (const { traceId, spanId } of once) {
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('traces each ended turn apart, a failed one as an error, and leaves out a turn still running', () => {
    const events = logOf([
      ...TURN_ONE.map(
        ({ event, batch, position }): [PersistedEvent, { batch?: string; position?: number }] => [
          event,
          { ...(batch ? { batch } : {}), ...(position === undefined ? {} : { position }) },
        ],
      ),
      [user('Again.', 10)],
      [start('t-2', 10.01)],
      [end('t-2', 10.5, 'failed')],
      [user('Once more.', 20)],
      [start('t-3', 20.01)],
    ]);
    const spans = spansOf(events);
    const agents = spans.filter(({ name }) => name.startsWith('invoke_agent'));
    expect(agents.map(({ traceId }) => traceId)).toEqual([
      traceIdOf(SESSION, 't-1'),
      traceIdOf(SESSION, 't-2'),
    ]);
    expect(agents[1]).toMatchObject({
      startMs: (AT + 10) * 1000,
      status: { code: 'error', message: 'ModelError' },
    });
    expect(spansOf(events).filter(({ traceId }) => traceId === traceIdOf(SESSION, 't-2'))).toHaveLength(1);
    const only = sessionSpans(SESSION, { events, entries: LEDGER }, { agent: 'checker', turns: ['t-2'] });
    expect(only.map(({ name }) => name)).toEqual(['invoke_agent checker']);
  });

  it('shows a compaction as a chat span and an event of its turn, and links a sub-agent’s turn from its call', () => {
    const events = logOf([
      [user('Delegate.', 0)],
      [start('t-1', 0.01)],
      [
        {
          type: 'compacted',
          timestamp: AT + 0.2,
          payload: {
            upToSeq: 1,
            summary: 'Earlier: nothing.',
            strategy: 'summarize',
            tokensBefore: 900,
            tokensAfter: 100,
          },
        } as PersistedEvent,
      ],
      [call('spawn_agent', { role: 'helper', task: 'Say hi.' }, 0, 0.3), { batch: 't-1.1', position: 0 }],
      [
        result([{ tool: 'spawn_agent', status: 'success', content: { status: 'done' } }], [900], 1.3),
        { batch: 't-1.1' },
      ],
      [end('t-1', 1.5)],
    ]);
    const ledger = [entry('t-1.1', 0.2, { purpose: 'compaction' }), entry('t-1.1', 0.3)];
    const [agent, compaction, step, spawn] = spansOf(events, ledger);
    expect(agent?.events).toEqual([{ name: 'compaction', timeMs: (AT + 0.2) * 1000 }]);
    expect(compaction?.name).toBe('chat gpt-4o-mini');
    expect(compaction?.attributes['gen_ai.response.finish_reasons']).toBeUndefined();
    expect(compaction?.spanId).not.toBe(step?.spanId);
    const child = subAgentIds({ session: SESSION, batch: 't-1.1', position: 0 }, 0);
    expect(spawn?.links).toEqual([
      {
        traceId: traceIdOf(child.session, child.turn),
        spanId: spanIdOf(child.session, child.turn, 'invoke_agent'),
      },
    ]);
  });

  it('starts a call that waited for a person when it was logged, so its approvals fall inside it', () => {
    const [, , , , fail] = spansOf(TURN_ONE);
    expect(fail).toMatchObject({ startMs: (AT + 0.3) * 1000, endMs: (AT + 2.01) * 1000 });
    for (const { timeMs } of fail?.events ?? []) {
      expect(timeMs).toBeGreaterThanOrEqual(fail?.startMs ?? 0);
      expect(timeMs).toBeLessThanOrEqual(fail?.endMs ?? 0);
    }
  });

  it('ends a call its turn ended first (cancelled) with the turn, from when it was logged, as an error', () => {
    const events = logOf([
      [user('Sleep.', 0)],
      [start('t-1', 0.01)],
      [call('sleep', { ms: 60000, value: 'late' }, 0, 0.3), { batch: 't-1.1', position: 0 }],
      [{ type: 'cancelled', timestamp: AT + 30 }],
      [end('t-1', 30.01)],
    ]);
    const [, , sleep] = spansOf(events, [entry('t-1.1', 0.3)]);
    expect(sleep).toMatchObject({
      startMs: (AT + 0.3) * 1000,
      endMs: (AT + 30.01) * 1000,
      status: { code: 'error', message: 'the call has no result: its turn ended first' },
    });
  });

  it('traces a turn that failed before its first record, and only a fork’s own turns', () => {
    const failedEarly = logOf([[user('Hi.', 0)], [end('t-1', 0.5, 'failed')]]);
    const [agent] = spansOf(failedEarly, []);
    expect(agent).toMatchObject({ startMs: AT * 1000, status: { code: 'error', message: 'ModelError' } });
    expect(agent?.attributes['gen_ai.agent.version']).toBeUndefined();
    // A fork of a batch's results: the parent's turn, unended, then the fork's own.
    const fork = logOf([
      [user('Parent.', 0)],
      [start('t-1', 0.01)],
      [call('echo', { text: 'x' }, 0, 0.3), { batch: 't-1.1', position: 0 }],
      [result([{ tool: 'echo', status: 'success', content: 'x' }], [1], 0.4), { batch: 't-1.1' }],
      [user('Fork.', 100)],
      [start('t-2', 100.01)],
      [end('t-2', 100.5)],
    ]);
    const spans = sessionSpans(SESSION, { events: fork, entries: [], after: 4 }, { agent: 'checker' });
    expect(spans.map(({ name, startMs }) => [name, startMs])).toEqual([
      ['invoke_agent checker', (AT + 100) * 1000],
    ]);
    const inherited = sessionSpans(SESSION, { events: fork, entries: [] }, { agent: 'checker' });
    expect(inherited.map(({ traceId }) => traceId)).toEqual([traceIdOf(SESSION, 't-2')]);
  });

  it('gives each of a step’s compactions its own span', () => {
    const ledger = [
      entry('t-1.1', 0.1, { purpose: 'compaction' }),
      entry('t-1.1', 0.2, { purpose: 'compaction' }),
      entry('t-1.1', 0.3),
      entry('t-1.2', 2.3),
    ];
    const ids = spansOf(TURN_ONE, ledger).map(({ spanId }) => spanId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
