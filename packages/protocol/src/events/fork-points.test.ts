import { describe, expect, it } from 'vitest';
import { forkPoints, nearestForkPoints } from './fork-points.js';
import type { PersistedEvent, StoredEvent } from './stored-event.js';

const logOf = (...types: PersistedEvent['type'][]): StoredEvent[] =>
  types.map((type, index) => ({
    session: 's',
    seq: index + 1,
    event: { type, content: '', timestamp: 1 } as PersistedEvent,
  }));

describe('forkPoints', () => {
  it("gives each batch's results and each turn's end, and nothing inside a step", () => {
    const log = logOf('user', 'think', 'call', 'call', 'result', 'respond', 'turn_end', 'user');
    expect(forkPoints(log)).toEqual([5, 7]);
  });

  it('gives nothing for a log without an ended batch or turn', () => {
    expect(forkPoints(logOf('user', 'think'))).toEqual([]);
  });
});

describe('nearestForkPoints', () => {
  it.each([
    [6, [5, 8]],
    [1, [5]],
    [9, [8]],
    [5, [8]],
  ])('around seq %i gives %j', (at, nearest) => {
    expect(nearestForkPoints([5, 8], at)).toEqual(nearest);
  });
});
