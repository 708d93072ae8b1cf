import type { DescribeTurnInput, TurnResult } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import type { UsageLedger } from '../usage/usage-ledger.js';
import { describeTurn, type PendingTurn } from './describe-turn.js';

/** A step that ends a turn (FinishTurn, FailTurn, ReleaseTurn), on its own input and deps. */
type EndStep<Input, Deps> = (input: Input, deps: Deps) => Promise<unknown>;

/**
 * `end`, then the result of the turn it ended, as DescribeTurn reads it from the log: the state
 * machine hands it straight to TurnEnded (one state fewer on every turn's path). A turn whose
 * terminal record is somehow not there yet comes back pending, and DescribeTurn asks again.
 */
export function describedAfter<Input extends DescribeTurnInput, Deps>(
  end: EndStep<Input, Deps>,
): (input: Input, deps: Deps & { log: EventLog; usage: UsageLedger }) => Promise<TurnResult | PendingTurn> {
  return async (input, deps) => {
    await end(input, deps);
    const { session, turn, request } = input;
    return describeTurn({ session, turn, ...(request === undefined ? {} : { request }) }, deps);
  };
}
