import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';

/** What a client submits to start a turn. */
export interface SubmitTurnInput {
  session: string;
  turn: string;
  prompt: string;
}

/**
 * Starts a turn on the client side, before its execution starts: takes the session for the turn
 * (SessionBusy if another turn has it) and appends the user message, idempotently per turn.
 */
export async function submitTurn(
  input: SubmitTurnInput,
  deps: { log: EventLog; clock: Clock },
): Promise<void> {
  await deps.log.acquireTurn(input.session, input.turn);
  await deps.log.append({
    session: input.session,
    turn: input.turn,
    key: `user:${input.turn}`,
    events: [{ event: { type: 'user', content: input.prompt, timestamp: deps.clock.now() / 1000 } }],
  });
}
