import type { FailTurnInput, TurnOutput } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { EventLog } from '../event-log/event-log.js';
import { endTurn } from './end-turn.js';
import { errorName } from './fail-turn.js';
import { describeCaught } from './record-tool-failure.js';

/**
 * The last resort when FailTurn itself failed: writes the turn's terminal record and frees the
 * session in one write, reading nothing. An open batch stays without its result until the next
 * turn takes the session over.
 */
export async function releaseTurn(
  input: FailTurnInput,
  deps: { log: EventLog; clock: Clock },
): Promise<TurnOutput> {
  const { session, turn } = input;
  const message = `The turn failed, and so did closing it: ${describeCaught(input.error)}`;
  await endTurn({ session, turn, status: 'failed', message, ...errorName(input.error.Error) }, deps);
  return { session, turn, status: 'failed', message };
}
