import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import type { StepUsage } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { MetricCursor } from './metric-cursor.js';

const at = (seq: number, event: PersistedEvent, batch?: string): StoredEvent => ({
  session: 's',
  seq,
  event,
  ...(batch ? { batch } : {}),
});
const LOG = [
  at(1, { type: 'user', content: 'hi', timestamp: 1 }),
  at(2, { type: 'call', content: '{"name":"echo","args":{}}', payload: { index: 0 }, timestamp: 1 }, 't.1'),
  at(
    3,
    {
      type: 'result',
      content: '[]',
      payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
      timestamp: 1,
    },
    't.1',
  ),
  // Step t.2 was blank: its spend is in the ledger, and nothing of it in the log.
  at(4, {
    type: 'turn_end',
    content: 'The turn finished.',
    payload: { turn: 't', status: 'done' },
    timestamp: 1,
  }),
];
const entry = (batch: string): StepUsage => ({
  session: 's',
  batch,
  model: 'scripted',
  at: 1,
  latencyMs: 1,
  usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
});
const LEDGER = [entry('t.1'), entry('t.2')];
const batchesOwed = (after: number) =>
  MetricCursor.after(after, LOG, LEDGER)
    .owed(LEDGER)
    .map((metric) => metric.payload?.batch);

describe('MetricCursor', () => {
  it('a stream from the start owes every step its metric', () => {
    expect(batchesOwed(0)).toEqual(['t.1', 't.2']);
  });

  it('a resumed stream owes the metrics of steps it has not seen logged, blank ones included', () => {
    expect(batchesOwed(2)).toEqual(['t.2']);
    expect(batchesOwed(3)).toEqual(['t.2']);
  });

  it('owes nothing of a turn that ended before the resume point', () => {
    expect(batchesOwed(4)).toEqual([]);
  });

  it('a metric is owed once: the next call owes only newer entries, with the session total', () => {
    const cursor = MetricCursor.after(0, LOG, LEDGER.slice(0, 1));
    expect(cursor.owed(LEDGER.slice(0, 1))).toHaveLength(1);
    expect(cursor.owed(LEDGER).map((metric) => metric.total)).toEqual([{ input: 20, output: 2 }]);
  });

  it('owes, before a turn ends, only the metrics up to that turn’s last step', () => {
    const ledger = [entry('t.1'), entry('t.2'), entry('u.1')];
    const cursor = MetricCursor.after(0, LOG, ledger);
    expect(cursor.owed(ledger, 't').map((metric) => metric.payload?.batch)).toEqual(['t.1', 't.2']);
    expect(cursor.owed(ledger, 'v')).toEqual([]);
    expect(cursor.owed(ledger).map((metric) => metric.payload?.batch)).toEqual(['u.1']);
  });
});
