import {
  type DescribeTurnInput,
  MAX_ANSWER_CHARS,
  type StoredEvent,
  type TurnResult,
  type WireEventOf,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { sessionSpend } from '../usage/session-spend.js';
import type { UsageLedger } from '../usage/usage-ledger.js';

/** A turn that has not ended yet: its description is asked for again later. */
export type PendingTurn = DescribeTurnInput & { pending: true };

/**
 * A turn's result, read from its session's log: its terminal status and what it said (`message`),
 * its final `respond` text (`answer`), and the tokens and cost of its own model steps. The session
 * is named as the requester named it. A turn without its terminal record yet is pending.
 */
export async function describeTurn(
  input: DescribeTurnInput,
  deps: { log: EventLog; usage: UsageLedger },
): Promise<TurnResult | PendingTurn> {
  const [events, entries] = await Promise.all([deps.log.read(input.session), deps.usage.list(input.session)]);
  const end = turnEndOf(events, input.turn);
  if (end === undefined) return { ...input, pending: true };
  const ofTurn = (batch: string | undefined) => batch?.startsWith(`${input.turn}.`) === true;
  const spend = sessionSpend(entries.filter((entry) => ofTurn(entry.batch)));
  return {
    session: input.request?.session ?? input.session,
    turn: input.turn,
    status: end.payload.status,
    answer: capped(turnAnswer(events, input.turn)),
    usage: {
      input: spend.inputTokens,
      output: spend.outputTokens,
      ...(spend.unpriced ? {} : { costUsd: spend.costUsd }),
    },
    message: end.content,
    ...(input.request?.requestId === undefined ? {} : { requestId: input.request.requestId }),
    ...(input.request?.tenant === undefined ? {} : { tenant: input.request.tenant }),
  };
}

/** A turn's terminal record in its session's log, once it has one. */
export function turnEndOf(events: readonly StoredEvent[], turn: string): WireEventOf<'turn_end'> | undefined {
  const end = events.find(({ event }) => event.type === 'turn_end' && event.payload.turn === turn)?.event;
  return end?.type === 'turn_end' ? end : undefined;
}

/**
 * A turn's answer, whole: the prose of its last model step that wrote any, else nothing. `events`
 * is its session's log.
 */
export function turnAnswer(events: readonly StoredEvent[], turn: string): string {
  const ofTurn = events.filter((stored) => stored.batch?.startsWith(`${turn}.`) === true);
  const last = ofTurn.findLast(({ event }) => event.type === 'respond');
  if (last === undefined) return '';
  return ofTurn
    .filter((stored) => stored.batch === last.batch && stored.event.type === 'respond')
    .map(({ event }) => (event.type === 'respond' ? event.content : ''))
    .join('\n');
}

/** An answer cut to MAX_ANSWER_CHARS, for results and events (the session's log keeps it whole). */
function capped(answer: string): string {
  return answer.length > MAX_ANSWER_CHARS ? `${answer.slice(0, MAX_ANSWER_CHARS - 1)}…` : answer;
}
