import type { Compaction } from '@agentstep/protocol';

/**
 * A compaction's one line for people: how many earlier events it summarized (or left out), by
 * which model, and the request's estimated size without and with it.
 */
export function compactionLine({ upToSeq, strategy, model, tokensBefore, tokensAfter }: Compaction): string {
  const events = `${upToSeq} earlier ${upToSeq === 1 ? 'event' : 'events'}`;
  const fate = strategy === 'drop' ? 'left out' : `summarized${model === undefined ? '' : ` by ${model}`}`;
  return `${events} ${fate} · ${tokens(tokensBefore)} → ${tokens(tokensAfter)} tokens`;
}

function tokens(count: number): string {
  return count.toLocaleString('en-US');
}
