import { elementName, type StoredEvent } from '@agentstep/protocol';
import { type StepUsage, type TurnLog, turnBatches, turnLogs } from '@agentstep/runtime';
import type { EvalCase, RecordedCall } from './eval-case.js';

/** The outcome recorded for a call whose batch has no result. */
const NO_RESULT = 'no result: the turn ended first';

/**
 * One eval case per ended turn of a session's log, oldest first (see {@link turnLogs}): the
 * session's events before its user message, its message, its calls with their recorded outcomes,
 * its last answer, its status, its model steps (compactions aside) and its usage.
 */
export function evalCasesOf(
  session: string,
  log: { events: StoredEvent[]; entries: StepUsage[]; after?: number },
): EvalCase[] {
  return turnLogs(session, log).map((turn) => caseOf(turn, log.events));
}

function caseOf(turn: TurnLog, events: readonly StoredEvent[]): EvalCase {
  const first = turn.events[0];
  const message = first?.event.type === 'user' ? first.event.content : '';
  const answer = turn.events.findLast(({ event }) => event.type === 'respond')?.event;
  return {
    id: `${turn.session}/${turn.turn}`,
    session: turn.session,
    turn: turn.turn,
    history: events
      .filter(({ seq }) => first !== undefined && seq < first.seq)
      .map(({ batch, position, event }) => ({
        ...(batch === undefined ? {} : { batch }),
        ...(position === undefined ? {} : { position }),
        event,
      })),
    message,
    calls: callsOf(turn.events),
    answer: answer?.type === 'respond' ? answer.content : '',
    status: turn.end.payload.status,
    steps: turn.entries.filter(({ purpose }) => purpose !== 'compaction').length,
    usage: usageOf(turn.entries),
  };
}

/** Every call of the turn in the order it was logged, each with the outcome its batch's result gave it. */
function callsOf(events: readonly StoredEvent[]): RecordedCall[] {
  return turnBatches(events).flatMap(({ calls, result, outcomes }) =>
    calls.map(({ position, element }) => {
      const args = element.ok ? element.call.args : argsOf(element.element);
      const outcome = outcomes[position];
      if (outcome !== undefined)
        return { tool: elementName(element), args, status: outcome.status, content: outcome.content };
      const content =
        result === undefined ? NO_RESULT : `no outcome at position ${position} of its batch's result`;
      return { tool: elementName(element), args, status: 'failure' as const, content };
    }),
  );
}

/** The arguments of a call that is not a valid one, when it has any. */
function argsOf(element: unknown): unknown {
  return typeof element === 'object' && element !== null ? (element as { args?: unknown }).args : undefined;
}

/** Token sums of every entry (compactions spend tokens too); cost only when every entry has one. */
function usageOf(entries: readonly StepUsage[]): EvalCase['usage'] {
  const input = entries.reduce((sum, { usage }) => sum + usage.inputTokens, 0);
  const output = entries.reduce((sum, { usage }) => sum + usage.outputTokens, 0);
  const priced = entries.every(({ costUsd }) => costUsd !== undefined);
  const costUsd = entries.reduce((sum, entry) => sum + (entry.costUsd ?? 0), 0);
  return { input, output, ...(priced ? { costUsd } : {}) };
}
