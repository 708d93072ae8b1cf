import { describe, expect, it } from 'vitest';
import { addTotals } from './add-totals.js';

describe('addTotals', () => {
  it('adds up the pages, with their cost while every page has one', () => {
    const priced = { totals: { sessions: 2, input: 10, output: 1, costUsd: 0.5 } };
    const unpriced = { totals: { sessions: 1, input: 5, output: 2 } };
    expect(addTotals([priced, priced])).toEqual({ sessions: 4, input: 20, output: 2, costUsd: 1 });
    expect(addTotals([priced, unpriced])).toEqual({ sessions: 3, input: 15, output: 3 });
    expect(addTotals([])).toEqual({ sessions: 0, input: 0, output: 0, costUsd: 0 });
  });
});
