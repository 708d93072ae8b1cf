import type { FailTurnInput, TurnOutput } from '@agentstep/protocol';
import { type AppendResultsDeps, appendResults } from './append-results.js';
import { describeCaught } from './record-tool-failure.js';

/**
 * Ends a turn that failed: a batch whose calls are in the log gets its result, with failures
 * where calls have no outcome (B4), then the session is freed.
 */
export async function failTurn(input: FailTurnInput, deps: AppendResultsDeps): Promise<TurnOutput> {
  const reason = describeCaught(input.error);
  const { batch, calls, count } = input;
  if (batch !== undefined && calls !== undefined && count !== undefined && count > 0) {
    const events = await deps.log.read(input.session);
    const hasResult = events.some((stored) => stored.batch === batch && stored.event.type === 'result');
    if (!hasResult) {
      await appendResults(
        { ...input, batch, calls, count },
        deps,
        `The turn failed before this call finished: ${reason}`,
      );
    }
  }
  await deps.log.releaseTurn(input.session, input.turn);
  return { session: input.session, turn: input.turn, status: 'failed', message: reason };
}
