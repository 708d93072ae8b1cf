import type { FinishTurnInput, TurnOutput } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';

/** Ends a turn that finished (A9), reached its step limit or spent its budget, and frees the session. */
export async function finishTurn(input: FinishTurnInput, deps: { log: EventLog }): Promise<TurnOutput> {
  await deps.log.releaseTurn(input.session, input.turn);
  if (input.next !== 'limit') return { session: input.session, turn: input.turn, status: 'finished' };
  return {
    session: input.session,
    turn: input.turn,
    status: 'limit',
    message:
      input.limit ??
      `The turn stopped after ${input.maxSteps} model steps (its step limit). The session is intact: send another message to continue, or raise the limit.`,
  };
}
