import type { DescribeTurnInput } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { describeTurn } from '../requests/describe-turn.js';
import type { UsageLedger } from '../usage/usage-ledger.js';
import type { TurnEvents } from './turn-events.js';

/** What announcing a turn's end needs: its log and ledger to describe it, and where to publish. */
export interface AnnounceDeps {
  log: EventLog;
  usage: UsageLedger;
  events: TurnEvents;
}

/**
 * Announces the end of a turn closed outside the state machine (whose own publish states announce
 * the others): its result, described from the log, as the state machine would have published it.
 */
export async function announceTurnEnd(turn: DescribeTurnInput, deps: AnnounceDeps): Promise<void> {
  const result = await describeTurn(turn, deps);
  if (!('pending' in result)) await deps.events.publish(result);
}
