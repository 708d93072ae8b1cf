import type { StoredEvent } from '@agentstep/protocol';
import type { StepUsage } from '../usage/step-usage.js';
import type { LogSpan } from './log-span.js';
import { turnLogs } from './turn-logs.js';
import { type TurnSpanOptions, turnSpans } from './turn-spans.js';

/**
 * The spans of every ended turn of a session (`turns`: only those), derived from its log and usage
 * ledger (decision 0047): one trace per turn, ids from (session, turn, what the span is of), so
 * exporting a session again gives the same spans. A fork's log starts with its parent's events up
 * to its origin's seq (`after`): those turns are the parent's, traced with it.
 */
export function sessionSpans(
  session: string,
  log: { events: readonly StoredEvent[]; entries: readonly StepUsage[]; after?: number },
  options: TurnSpanOptions & { turns?: readonly string[] },
): LogSpan[] {
  return turnLogs(session, log)
    .filter(({ turn }) => options.turns === undefined || options.turns.includes(turn))
    .flatMap((turn) => turnSpans(turn, options));
}
