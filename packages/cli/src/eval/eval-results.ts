import type { CaseResult, CaseRun, EvalCase, EvalResults } from './eval-case.js';

/** Below this, a score's drop is float noise, not a regression (scores print with 2 decimals). */
const EPSILON = 1e-9;

/**
 * The results of an eval run: each case's scores and what its run did, and the totals (each
 * scorer's mean over the cases, sums of steps, tokens and unrecorded calls, cost only when every
 * case's run has one).
 */
export function resultsOf(
  scored: ReadonlyArray<{ case: EvalCase; run: CaseRun; scores: Record<string, number> }>,
): EvalResults {
  const cases = scored.map(
    ({ case: { id }, run: { answer, status, steps, usage, notRecorded }, scores }): CaseResult => ({
      id,
      scores,
      answer,
      status,
      steps,
      usage,
      notRecorded,
    }),
  );
  const sum = (of: (result: CaseResult) => number) => cases.reduce((total, result) => total + of(result), 0);
  const names = [...new Set(cases.flatMap(({ scores }) => Object.keys(scores)))];
  const scores = Object.fromEntries(
    names.map((name) => {
      const values = cases.flatMap(({ scores: own }) => (own[name] === undefined ? [] : [own[name]]));
      return [name, values.reduce((total, value) => total + value, 0) / values.length];
    }),
  );
  const priced = cases.every(({ usage }) => usage.costUsd !== undefined);
  return {
    cases,
    totals: {
      scores,
      steps: sum(({ steps }) => steps),
      input: sum(({ usage }) => usage.input),
      output: sum(({ usage }) => usage.output),
      ...(priced ? { costUsd: sum(({ usage }) => usage.costUsd ?? 0) } : {}),
      notRecorded: sum(({ notRecorded }) => notRecorded),
    },
  };
}

/**
 * The results as a fixed-width table: a header (`case`, each scorer, `steps`, `tokens`, `cost`,
 * `not recorded`), a line per case with scores to 2 decimals, and a `total` line (mean scores).
 */
export function resultsTable(results: EvalResults): string {
  const names = [...new Set(results.cases.flatMap(({ scores }) => Object.keys(scores)))];
  const row = (
    id: string,
    scores: Record<string, number>,
    { steps, input, output, costUsd, notRecorded }: Omit<EvalResults['totals'], 'scores'>,
  ) => [
    id,
    ...names.map((name) => scores[name]?.toFixed(2) ?? '-'),
    String(steps),
    String(input + output),
    costUsd === undefined ? '-' : `$${costUsd.toFixed(4)}`,
    String(notRecorded),
  ];
  const rows = [
    ['case', ...names, 'steps', 'tokens', 'cost', 'not recorded'],
    ...results.cases.map(({ id, scores, steps, usage, notRecorded }) =>
      row(id, scores, {
        steps,
        input: usage.input,
        output: usage.output,
        ...(usage.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
        notRecorded,
      }),
    ),
    row('total', results.totals.scores, results.totals),
  ];
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((cells) => cells[column]?.length ?? 0))) ?? [];
  // The case column reads left to right; numbers line up on the right.
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return `${rows.map(line).join('\n')}\n`;
}

/**
 * What got worse from `baseline` to `current`, one line per drop: each scorer of a case in both
 * runs whose score fell by more than `tolerance` (`"<case> <scorer>: 1.00 → 0.50"`), and each case
 * of the baseline the current run does not have. None when nothing regressed.
 */
export function regressions(current: EvalResults, baseline: EvalResults, tolerance: number): string[] {
  const now = new Map(current.cases.map((result) => [result.id, result]));
  return baseline.cases.flatMap(({ id, scores: before }) => {
    const after = now.get(id)?.scores;
    if (after === undefined) return [`${id}: missing from this run`];
    return Object.entries(before).flatMap(([name, was]) => {
      const is = after[name];
      return is !== undefined && is < was - tolerance - EPSILON
        ? [`${id} ${name}: ${was.toFixed(2)} → ${is.toFixed(2)}`]
        : [];
    });
  });
}
