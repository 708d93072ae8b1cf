import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import type { CaseRun, EvalCase } from './eval-case.js';
import { builtInScorer, loadScorers } from './scorers.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

const RECORDED: EvalCase = {
  id: 's-1/t-1',
  session: 's-1',
  turn: 't-1',
  history: [],
  message: 'Read the file.',
  calls: [
    { tool: 'read', args: { file: 'a.md', lines: { from: 1, to: 2 } }, status: 'success', content: 'A' },
  ],
  answer: 'The file says A.',
  status: 'done',
  steps: 2,
  usage: { input: 100, output: 20, costUsd: 0.02 },
};

function runOf(extra: Partial<CaseRun> = {}): CaseRun {
  const { answer, status, calls, steps, usage } = RECORDED;
  return { answer, status, calls, steps, usage, notRecorded: 0, ...extra };
}

async function score(spec: string, run: CaseRun): Promise<number> {
  return builtInScorer(spec).score({ case: RECORDED, run });
}

describe('builtInScorer', () => {
  it.each([
    ['answer-equals', {}, 1],
    ['answer-equals', { answer: ' The file says A.\n' }, 1],
    ['answer-equals', { answer: 'It says B.' }, 0],
    ['answer-contains:says A', {}, 1],
    ['answer-contains:says B', {}, 0],
    ['answer-matches:^The .* A\\.$', {}, 1],
    ['answer-matches:B', {}, 0],
    [
      'same-calls',
      {
        calls: [
          {
            tool: 'read',
            args: { lines: { to: 2, from: 1 }, file: 'a.md' },
            status: 'failure',
            content: 'x',
          },
        ],
      },
      1,
    ],
    ['same-calls', { calls: [] }, 0],
    ['same-calls', { calls: [{ tool: 'read', args: { file: 'b.md' }, status: 'success', content: 'B' }] }, 0],
    ['fewer-steps', { steps: 1 }, 1],
    ['fewer-steps', { steps: 4 }, 0.5],
    ['cost', { usage: { input: 10, output: 2, costUsd: 0.01 } }, 1],
    ['cost', { usage: { input: 10, output: 2, costUsd: 0.08 } }, 0.25],
    ['cost', { usage: { input: 200, output: 40 } }, 0.5],
  ] satisfies Array<[string, Partial<CaseRun>, number]>)(
    'scores %s of a run with %j as %d',
    async (spec, run, expected) => {
      expect(await score(spec, runOf(run))).toBe(expected);
    },
  );

  it('names a scorer by its spec', () => {
    expect(builtInScorer('answer-contains:A').name).toBe('answer-contains:A');
  });

  it.each([
    ['answer-matches:(', /answer-matches:\(: \( is not a valid regular expression/],
    ['answer-like', /no such scorer; use one of answer-equals, answer-contains:TEXT, .*cost/],
    ['answer-contains', /needs an argument; use --scorer answer-contains:TEXT/],
    ['same-calls:x', /same-calls takes no argument/],
  ])('refuses %s with a UsageError', (spec, message) => {
    expect(() => builtInScorer(spec)).toThrow(UsageError);
    expect(() => builtInScorer(spec)).toThrow(message);
  });
});

describe('loadScorers', () => {
  it('uses answer-equals and same-calls when no scorer is named', async () => {
    const scorers = await loadScorers([], FIXTURES);
    expect(scorers.map(({ name }) => name)).toEqual(['answer-equals', 'same-calls']);
  });

  it('loads the scorers of a file beside the built-ins, in order', async () => {
    const scorers = await loadScorers(['fewer-steps', 'judge-scorers.mjs'], FIXTURES);
    expect(scorers.map(({ name }) => name)).toEqual(['fewer-steps', 'short-answer', 'judge']);
    const judge = scorers[2];
    expect(await judge?.score({ case: RECORDED, run: runOf({ answer: 'Other.' }) })).toBe(0.5);
  });

  it.each([
    [['not-a-scorer.mjs'], /not-a-scorer\.mjs: its default export is not a scorer/],
    [['missing.ts'], /--scorer missing\.ts: there is no such file/],
    [['cost', 'cost'], /two scorers are named cost/],
  ])('refuses %j with a UsageError', async (specs, message) => {
    await expect(loadScorers(specs, FIXTURES)).rejects.toThrow(message);
    await expect(loadScorers(specs, FIXTURES)).rejects.toBeInstanceOf(UsageError);
  });
});
