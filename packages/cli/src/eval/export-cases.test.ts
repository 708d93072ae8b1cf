import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import type { StepUsage } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { evalCaseSchema } from './eval-case.js';
import { evalCasesOf } from './export-cases.js';

const SESSION = 's-evals';
const AT = 1_795_956_923;

/** A session's log, written in order: each event its seq and step (`batch`, `position`). */
function logOf(entries: Array<[PersistedEvent, { batch?: string; position?: number }?]>): StoredEvent[] {
  return entries.map(([event, where = {}], seq) => ({ session: SESSION, seq: seq + 1, ...where, event }));
}

const user = (content: string): PersistedEvent => ({ type: 'user', content, timestamp: AT });
const start = (turn: string): PersistedEvent => ({
  type: 'turn_start',
  content: `Turn ${turn} runs.`,
  timestamp: AT,
  payload: { turn, version: 'v1' },
});
const end = (turn: string, status: 'done' | 'limit' = 'done'): PersistedEvent => ({
  type: 'turn_end',
  content: 'The turn ended.',
  timestamp: AT,
  payload: { turn, status },
});
const call = (name: string, args: object, index: number): PersistedEvent => ({
  type: 'call',
  content: JSON.stringify({ name, args }),
  timestamp: AT,
  payload: { index },
});
const result = (items: object[]): PersistedEvent => ({
  type: 'result',
  content: JSON.stringify(items),
  timestamp: AT,
  payload: { tools_executed: items.length, success_count: 1, failure_count: items.length - 1 },
});
const respond = (content: string): PersistedEvent => ({ type: 'respond', content, timestamp: AT });
const entry = (batch: string, extra: Partial<StepUsage> = {}): StepUsage => ({
  session: SESSION,
  batch,
  model: 'openai:gpt-4o-mini',
  at: AT * 1000,
  latencyMs: 200,
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
  ...extra,
});

/** Turn one: two calls (one fails), then an answer; turn two: a call the turn's limit cut off. */
const EVENTS = logOf([
  [user('Check the words.')],
  [start('t-1')],
  [call('echo', { text: 'alpha' }, 0), { batch: 't-1.1', position: 0 }],
  [call('fail', { message: 'beta' }, 1), { batch: 't-1.1', position: 1 }],
  [
    result([
      { tool: 'echo', status: 'success', content: 'alpha' },
      { tool: 'fail', status: 'failure', content: 'beta' },
    ]),
    { batch: 't-1.1' },
  ],
  [respond('Thinking aloud.'), { batch: 't-1.2' }],
  [respond('Alpha, and beta failed.'), { batch: 't-1.2' }],
  [end('t-1')],
  [user('Again.')],
  [start('t-2')],
  [call('echo', { text: 'gamma' }, 0), { batch: 't-2.1', position: 0 }],
  [end('t-2', 'limit')],
  [user('Still running.')],
  [start('t-3')],
]);
const ENTRIES = [
  entry('t-1.1', { costUsd: 0.01 }),
  entry('t-1.2', { costUsd: 0.02 }),
  entry('t-2.1', { purpose: 'compaction', costUsd: 0.005 }),
  entry('t-2.1'),
];

describe('evalCasesOf', () => {
  it('makes one valid case per ended turn, named by session and turn', () => {
    const cases = evalCasesOf(SESSION, { events: EVENTS, entries: ENTRIES });
    expect(cases.map(({ id }) => id)).toEqual(['s-evals/t-1', 's-evals/t-2']);
    for (const one of cases) expect(evalCaseSchema.parse(one)).toEqual(one);
  });

  it('records the message, each call with its outcome, the last answer, status, steps and usage', () => {
    const [first] = evalCasesOf(SESSION, { events: EVENTS, entries: ENTRIES });
    expect(first).toMatchObject({
      session: SESSION,
      turn: 't-1',
      history: [],
      message: 'Check the words.',
      calls: [
        { tool: 'echo', args: { text: 'alpha' }, status: 'success', content: 'alpha' },
        { tool: 'fail', args: { message: 'beta' }, status: 'failure', content: 'beta' },
      ],
      answer: 'Alpha, and beta failed.',
      status: 'done',
      steps: 2,
      usage: { input: 200, output: 40, costUsd: 0.03 },
    });
  });

  it('gives the events before the turn as history, and a call the turn cut off no result', () => {
    const [, second] = evalCasesOf(SESSION, { events: EVENTS, entries: ENTRIES });
    expect(second?.history).toHaveLength(8);
    expect(second?.history[2]).toEqual({ batch: 't-1.1', position: 0, event: EVENTS[2]?.event });
    expect(second?.history[0]).toEqual({ event: EVENTS[0]?.event });
    expect(second).toMatchObject({
      message: 'Again.',
      calls: [
        {
          tool: 'echo',
          args: { text: 'gamma' },
          status: 'failure',
          content: 'no result: the turn ended first',
        },
      ],
      answer: '',
      status: 'limit',
      steps: 1,
    });
    // The compaction's tokens count; its cost alone does not make the turn's cost known.
    expect(second?.usage).toEqual({ input: 200, output: 40 });
  });

  it('leaves a fork’s inherited turns out but keeps them as history', () => {
    const cases = evalCasesOf(SESSION, { events: EVENTS, entries: ENTRIES, after: 8 });
    expect(cases.map(({ id }) => id)).toEqual(['s-evals/t-2']);
    expect(cases[0]?.history).toHaveLength(8);
  });
});
