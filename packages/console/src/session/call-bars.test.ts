import { describe, expect, it } from 'vitest';
import { batchBars } from './call-bars.js';
import type { BatchEntry } from './timeline-entries.js';

const call = (seq: number, name: string) => ({
  seq,
  type: 'call' as const,
  content: JSON.stringify({ name, args: {} }),
  timestamp: 100,
});
const approval = (index: number, status: string, timestamp: number) => ({
  seq: 0,
  type: 'approval' as const,
  content: '',
  payload: { index, status },
  timestamp,
});

describe('batchBars', () => {
  it('puts each call on the batch time line: its wait for approval, then its run for as long as it ran', () => {
    const batch = {
      kind: 'batch',
      key: 'b',
      calls: [call(2, 'sleep'), call(3, 'echo')],
      approvals: [approval(1, 'requested', 100), approval(1, 'approved', 104)],
      result: {
        seq: 6,
        type: 'result',
        content: '[]',
        payload: { tools_executed: 2, success_count: 2, failure_count: 0, durations_ms: [3000, 500] },
        timestamp: 105,
      },
    } as unknown as BatchEntry;
    expect(batchBars(batch)).toEqual({
      bars: [
        { name: 'sleep', run: { from: 0, to: 3 } },
        { name: 'echo', wait: { from: 0, to: 4 }, run: { from: 4, to: 4.5 } },
      ],
      span: 5,
    });
  });

  it('has nothing to draw before the batch has its result', () => {
    expect(
      batchBars({ kind: 'batch', key: 'b', calls: [], approvals: [], outcomes: [], result: undefined }),
    ).toBeUndefined();
  });
});
