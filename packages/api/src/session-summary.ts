import type { SessionSummary, StoredEvent } from '@agentstep/protocol';
import { sessionSpend, type UsageLedger } from '@agentstep/runtime';
import { sessionState, sessionStatus } from './session-state.js';

/**
 * Where a session's turns stand and what it spent, as `GET /sessions/{id}` answers: `session` is
 * the tenant's id; `lastTurn` the last turn that ended and its status (`null` before one has).
 */
export async function sessionSummary(
  session: { id: string; stored: string; events: readonly StoredEvent[] },
  usage: UsageLedger,
): Promise<SessionSummary> {
  const state = sessionState(session.events);
  const spend = sessionSpend(await usage.list(session.stored));
  return {
    session: session.id,
    status: sessionStatus(session.events, state),
    turns: state.turns,
    lastSeq: state.lastSeq,
    lastTurn: state.lastEnd
      ? { turn: state.lastEnd.payload.turn, status: state.lastEnd.payload.status }
      : null,
    usage: {
      input: spend.inputTokens,
      output: spend.outputTokens,
      ...(spend.unpriced ? {} : { costUsd: spend.costUsd }),
    },
  };
}
