import { describe, expect, it } from 'vitest';
import { itemKey, timelineItem } from './timeline-item.js';

const metric = (batch: string, purpose?: 'compaction') => ({
  type: 'metric' as const,
  step: { input: 10, output: 2 },
  total: { input: 10, output: 2 },
  timestamp: 1,
  payload: {
    model: 'm',
    batch,
    latency_ms: 1,
    cache_read: 0,
    cache_write: 0,
    ...(purpose ? { purpose } : {}),
  },
});

describe('timelineItem', () => {
  it("keys a compaction's metric apart from its step's, so the timeline shows both once", () => {
    const step = timelineItem({ type: 'metric', event: metric('t.3') }, 0);
    const compaction = timelineItem({ type: 'metric', event: metric('t.3', 'compaction') }, 1);
    expect(step).toMatchObject({ type: 'metric', key: 'metric-t.3' });
    expect(step).not.toHaveProperty('purpose');
    expect(compaction).toMatchObject({ type: 'metric', key: 'metric-compaction-t.3', purpose: 'compaction' });
    if (step === undefined || compaction === undefined) throw new Error('both are shown');
    expect(itemKey(step)).not.toBe(itemKey(compaction));
  });

  it("keys a call's outcome sent while its batch waits by its call, so a resumed stream shows it once", () => {
    const outcome = {
      type: 'call_outcome' as const,
      batch: 't.1',
      position: 1,
      tool: 'sleep',
      status: 'success' as const,
      content: 'slept',
    };
    const [first, again] = [timelineItem(outcome, 7), timelineItem(outcome, 9)];
    expect(first).toEqual({ ...outcome, key: 'outcome-t.1#1' });
    if (first === undefined || again === undefined) throw new Error('both are shown');
    expect(itemKey(again)).toBe(itemKey(first));
  });
});
