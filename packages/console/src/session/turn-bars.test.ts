import { describe, expect, it } from 'vitest';
import { timelineEntries } from './timeline-entries.js';
import type { TimelineItem } from './timeline-item.js';
import { turnBars, turnsByEnd } from './turn-bars.js';

const at = (seq: number, timestamp: number, event: Record<string, unknown>) =>
  ({ seq, timestamp, ...event }) as unknown as TimelineItem;
const user = (seq: number, timestamp: number) => at(seq, timestamp, { type: 'user', content: 'go' });
const call = (seq: number, timestamp: number, name: string) =>
  at(seq, timestamp, { type: 'call', content: JSON.stringify({ name, args: {} }) });
const result = (seq: number, timestamp: number, durations: number[]) =>
  at(seq, timestamp, {
    type: 'result',
    content: '[]',
    payload: {
      tools_executed: durations.length,
      success_count: durations.length,
      failure_count: 0,
      durations_ms: durations,
    },
  });
const turnEnd = (seq: number, timestamp: number) =>
  at(seq, timestamp, { type: 'turn_end', content: 'Done.', payload: { turn: 't-1', status: 'done' } });

/** A turn: step 1 (2 s) writes a thought and two calls (3 s and 1 s), step 2 (1.5 s) answers. */
const TURN: TimelineItem[] = [
  user(1, 100),
  at(2, 102, { type: 'think', content: 'two calls' }),
  call(3, 102, 'search'),
  call(4, 102, 'echo'),
  result(5, 105, [3000, 1000]),
  at(6, 106.5, { type: 'respond', content: 'Done.' }),
  turnEnd(7, 106.5),
];

describe('turnBars', () => {
  it('draws each model step, then its batch calls where the batch started, on the turn time line', () => {
    expect(turnBars(timelineEntries(TURN))).toEqual({
      bars: [
        { kind: 'step', name: 'model step 1', run: { from: 0, to: 2 } },
        { kind: 'call', name: 'search', run: { from: 2, to: 5 } },
        { kind: 'call', name: 'echo', run: { from: 2, to: 3 } },
        { kind: 'step', name: 'model step 2', run: { from: 5, to: 6.5 } },
      ],
      span: 6.5,
      steps: 2,
      calls: 2,
    });
  });

  it('ends a step that wrote nothing (a failed turn) at the turn end', () => {
    const failed = [user(1, 10), turnEnd(2, 14)];
    expect(turnBars(timelineEntries(failed))?.bars).toEqual([
      { kind: 'step', name: 'model step 1', run: { from: 0, to: 4 } },
    ]);
  });
});

describe('turnsByEnd', () => {
  it("gives each turn's end the rows from its own message, not the turns before it", () => {
    const second = [user(8, 200), at(9, 201, { type: 'respond', content: 'Hi.' }), turnEnd(10, 201)];
    const turns = turnsByEnd(timelineEntries([...TURN, ...second]));
    expect([...turns.keys()]).toEqual(['seq-7', 'seq-10']);
    expect(turns.get('seq-10')?.map((entry) => entry.key)).toEqual(['seq-8', 'seq-9', 'seq-10']);
    expect(turns.get('seq-7')?.[0]?.key).toBe('seq-1');
  });
});
