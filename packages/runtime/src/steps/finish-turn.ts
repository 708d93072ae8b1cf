import { type FinishTurnInput, NEXT, type TurnOutput } from '@agentstep/protocol';
import type { AppendResultsDeps } from './append-results.js';
import { closeTurn } from './close-turn.js';
import { endTurn } from './end-turn.js';

/** What a cancelled turn's terminal record says. */
export const CANCELLED_MESSAGE = 'The turn was cancelled.';

/**
 * Ends a turn that finished (A9), reached its step limit, spent its budget or was cancelled: its
 * terminal record says which (a cancelled turn's open batch gets failure results first), and the
 * session is freed.
 */
export async function finishTurn(input: FinishTurnInput, deps: AppendResultsDeps): Promise<TurnOutput> {
  const { session, turn } = input;
  if (input.next === NEXT.cancelled) {
    const end = { session, turn, status: 'cancelled' as const, message: CANCELLED_MESSAGE };
    await closeTurn(end, 'The turn was cancelled before this call ran.', deps);
    return { session, turn, status: 'cancelled', message: CANCELLED_MESSAGE };
  }
  if (input.next !== 'limit') {
    await endTurn({ session, turn, status: 'done', message: 'The turn finished.' }, deps);
    return { session, turn, status: 'finished' };
  }
  const message =
    input.limit ??
    `The turn stopped after ${input.maxSteps} model steps (its step limit). The session is intact: send another message to continue, or raise the limit.`;
  await endTurn({ session, turn, status: 'limit', message }, deps);
  return { session, turn, status: 'limit', message };
}
