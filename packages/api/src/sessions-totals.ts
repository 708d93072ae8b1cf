import type { SessionListItem, SessionsList } from '@agentstep/protocol';

/**
 * What `sessions` add up to: how many, their input and output tokens, and their cost in USD when
 * every one of them has a cost (a session of an unpriced model leaves it out).
 */
export function sessionsTotals(sessions: readonly SessionListItem[]): SessionsList['totals'] {
  let input = 0;
  let output = 0;
  let costUsd: number | undefined = 0;
  for (const { usage } of sessions) {
    input += usage.input;
    output += usage.output;
    costUsd = costUsd === undefined || usage.costUsd === undefined ? undefined : costUsd + usage.costUsd;
  }
  return { sessions: sessions.length, input, output, ...(costUsd === undefined ? {} : { costUsd }) };
}
