import type { LoggedEvent } from '@agentstep/client';
import { describe, expect, it } from 'vitest';
import { timelineEntries } from './timeline-entries.js';
import type { TimelineItem } from './timeline-item.js';

const at = 1_700_000_000;
const user = (seq: number): LoggedEvent => ({ seq, type: 'user', content: 'Go', timestamp: at });
const call = (seq: number, name: string): LoggedEvent => ({
  seq,
  type: 'call',
  content: JSON.stringify({ name, args: {} }),
  timestamp: at,
});
const result = (seq: number): LoggedEvent => ({
  seq,
  type: 'result',
  content: '[]',
  payload: { tools_executed: 2, success_count: 2, failure_count: 0 },
  timestamp: at,
});
const approval = (seq: number): LoggedEvent => ({
  seq,
  type: 'approval',
  timestamp: at,
  payload: { id: 't.1.1', index: 0, status: 'requested' },
});
const metric: TimelineItem = {
  type: 'metric',
  key: 'metric-b1',
  input: 10,
  output: 2,
  costUsd: undefined,
  totalCostUsd: undefined,
};
const respond = (seq: number): LoggedEvent => ({ seq, type: 'respond', content: 'Done.', timestamp: at });

describe('timelineEntries', () => {
  it('puts consecutive calls in one batch that their result completes, approvals and metrics beside it', () => {
    const entries = timelineEntries([
      user(1),
      call(2, 'a'),
      call(3, 'b'),
      approval(4),
      metric,
      result(5),
      respond(6),
    ]);
    expect(entries.map((entry) => entry.key)).toEqual(['seq-1', 'batch-2', 'seq-4', 'metric-b1', 'seq-6']);
    const batch = entries[1];
    expect(batch?.kind === 'batch' && [batch.calls.map((each) => each.seq), batch.result?.seq]).toEqual([
      [2, 3],
      5,
    ]);
  });

  it("puts a call's outcome that came before the result in its open batch, not in a row of its own", () => {
    const outcome: TimelineItem = {
      type: 'call_outcome',
      key: 'outcome-t.1#1',
      batch: 't.1',
      position: 1,
      tool: 'b',
      status: 'success',
      content: 'done',
    };
    const entries = timelineEntries([user(1), call(2, 'a'), call(3, 'b'), approval(4), outcome, result(5)]);
    expect(entries.map((entry) => entry.key)).toEqual(['seq-1', 'batch-2', 'seq-4']);
    const batch = entries[1];
    expect(batch?.kind === 'batch' && [batch.outcomes, batch.result?.seq]).toEqual([[outcome], 5]);
  });

  it('starts a new batch after a result, and leaves a batch whose turn ended without result open-ended', () => {
    const entries = timelineEntries([call(1, 'a'), result(2), call(3, 'b'), user(4), call(5, 'c')]);
    expect(entries.map((entry) => entry.key)).toEqual(['batch-1', 'batch-3', 'seq-4', 'batch-5']);
    expect(entries[1]?.kind === 'batch' && entries[1].result).toBeUndefined();
  });
});
