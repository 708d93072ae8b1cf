import type { FinishTurnInput, TurnOutput } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';
import { endTurn } from './end-turn.js';

/**
 * Ends a turn that finished (A9), reached its step limit or spent its budget: its terminal record
 * says which, and the session is freed.
 */
export async function finishTurn(
  input: FinishTurnInput,
  deps: { log: EventLog; clock: Clock },
): Promise<TurnOutput> {
  const { session, turn } = input;
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
