import { describe, expect, it } from 'vitest';
import type { CaseRun, EvalCase, EvalResults } from './eval-case.js';
import { regressions, resultsOf, resultsTable } from './eval-results.js';

function caseOf(id: string): EvalCase {
  const [session = id, turn = id] = id.split('/');
  return {
    id,
    session,
    turn,
    history: [],
    message: 'Hello.',
    calls: [],
    answer: 'Hi.',
    status: 'done',
    steps: 1,
    usage: { input: 10, output: 5 },
  };
}

function runOf(extra: Partial<CaseRun> = {}): CaseRun {
  return {
    answer: 'Hi.',
    status: 'done',
    calls: [],
    steps: 1,
    usage: { input: 10, output: 5 },
    notRecorded: 0,
    ...extra,
  };
}

const SCORED = [
  {
    case: caseOf('s-1/t-1'),
    run: runOf({ steps: 2, usage: { input: 100, output: 20, costUsd: 0.01 }, notRecorded: 1 }),
    scores: { 'answer-equals': 1, 'same-calls': 0.5 },
  },
  {
    case: caseOf('s-1/t-2'),
    run: runOf({ answer: 'Bye.', steps: 3, usage: { input: 200, output: 40, costUsd: 0.02 } }),
    scores: { 'answer-equals': 0, 'same-calls': 1 },
  },
];

describe('resultsOf', () => {
  it('keeps each case’s run and scores, and totals mean scores and sums', () => {
    const results = resultsOf(SCORED);
    expect(results.cases[1]).toEqual({
      id: 's-1/t-2',
      scores: { 'answer-equals': 0, 'same-calls': 1 },
      answer: 'Bye.',
      status: 'done',
      steps: 3,
      usage: { input: 200, output: 40, costUsd: 0.02 },
      notRecorded: 0,
    });
    expect(results.totals).toEqual({
      scores: { 'answer-equals': 0.5, 'same-calls': 0.75 },
      steps: 5,
      input: 300,
      output: 60,
      costUsd: 0.03,
      notRecorded: 1,
    });
  });

  it('gives no total cost when a case’s run has none', () => {
    const [first, second] = SCORED;
    if (first === undefined || second === undefined) throw new Error('two cases expected');
    const results = resultsOf([first, { ...second, run: runOf() }]);
    expect(results.totals).not.toHaveProperty('costUsd');
  });
});

describe('resultsTable', () => {
  it('prints a header, a line per case and a total, in fixed-width columns', () => {
    expect(resultsTable(resultsOf(SCORED))).toBe(
      [
        'case     answer-equals  same-calls  steps  tokens     cost  not recorded',
        's-1/t-1           1.00        0.50      2     120  $0.0100             1',
        's-1/t-2           0.00        1.00      3     240  $0.0200             0',
        'total             0.50        0.75      5     360  $0.0300             1',
        '',
      ].join('\n'),
    );
  });
});

describe('regressions', () => {
  const results = (cases: Array<[string, Record<string, number>]>): EvalResults =>
    resultsOf(cases.map(([id, scores]) => ({ case: caseOf(id), run: runOf(), scores })));

  it('names each score that fell by more than the tolerance, and each case no longer run', () => {
    const baseline = results([
      ['a/1', { 'answer-equals': 1, 'same-calls': 1 }],
      ['a/2', { 'answer-equals': 1 }],
      ['a/3', { 'answer-equals': 1 }],
    ]);
    const current = results([
      ['a/1', { 'answer-equals': 0.5, 'same-calls': 0.9, judge: 0 }],
      ['a/2', { 'answer-equals': 1 }],
      ['a/4', { 'answer-equals': 0 }],
    ]);
    expect(regressions(current, baseline, 0.1)).toEqual([
      'a/1 answer-equals: 1.00 → 0.50',
      'a/3: missing from this run',
    ]);
    expect(regressions(current, baseline, 0)).toContain('a/1 same-calls: 1.00 → 0.90');
  });

  it('finds none when nothing got worse', () => {
    const same = results([['a/1', { 'answer-equals': 1 }]]);
    expect(regressions(same, same, 0)).toEqual([]);
  });
});
