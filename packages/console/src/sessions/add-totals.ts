import type { SessionsList } from '@agentstep/client';

/** The totals of pages of the list added up: the cost only when each page has one. */
export function addTotals(pages: ReadonlyArray<Pick<SessionsList, 'totals'>>): SessionsList['totals'] {
  let sessions = 0;
  let input = 0;
  let output = 0;
  let costUsd: number | undefined = 0;
  for (const { totals } of pages) {
    sessions += totals.sessions;
    input += totals.input;
    output += totals.output;
    costUsd = costUsd === undefined || totals.costUsd === undefined ? undefined : costUsd + totals.costUsd;
  }
  return { sessions, input, output, ...(costUsd === undefined ? {} : { costUsd }) };
}
