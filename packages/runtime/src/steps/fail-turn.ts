import type { FailTurnInput, TurnOutput } from '@agentstep/protocol';
import type { AppendResultsDeps } from './append-results.js';
import { cancelRequested } from './cancel-requested.js';
import { CANCELLED_CALL } from './close-stopped-turn.js';
import { closeTurn } from './close-turn.js';
import { CANCELLED_MESSAGE } from './finish-turn.js';
import { describeCaught } from './record-tool-failure.js';

/**
 * Ends a turn that failed: its open batch gets its result, with failures where calls have no
 * outcome (B4), then the terminal record names the error and the session is freed. A turn asked to
 * stop ends `cancelled` instead: its failure is the cancel's doing (a stopped execution it waited
 * for, in ContinueAsNew).
 */
export async function failTurn(input: FailTurnInput, deps: AppendResultsDeps): Promise<TurnOutput> {
  const { session, turn } = input;
  if (await cancelRequested(deps.log, session, turn)) {
    await closeTurn({ session, turn, status: 'cancelled', message: CANCELLED_MESSAGE }, CANCELLED_CALL, deps);
    return { session, turn, status: 'cancelled', message: CANCELLED_MESSAGE };
  }
  const reason = describeCaught(input.error);
  const end = { session, turn, status: 'failed' as const, message: reason, ...errorName(input.error.Error) };
  await closeTurn(end, `The turn failed before this call finished: ${reason}`, deps);
  return { session, turn, status: 'failed', message: reason };
}

/** The caught error's name for the terminal record, when Step Functions gave one. */
export function errorName(name: string | undefined): { error?: string } {
  return name === undefined ? {} : { error: name };
}
