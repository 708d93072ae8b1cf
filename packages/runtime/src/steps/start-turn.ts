import type { LoopState, TurnInput } from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';

/**
 * The first state of a turn's execution: confirms the turn holds its session and finds the
 * session's next model step. A continued execution arrives with its counters and keeps them.
 */
export async function startTurn(
  input: TurnInput & Partial<Pick<LoopState, 'step' | 'turnSteps'>>,
  deps: { log: EventLog },
): Promise<LoopState> {
  await deps.log.acquireTurn(input.session, input.turn);
  const step = input.step ?? (await countModelSteps(deps.log, input.session));
  return { ...input, step, turnSteps: input.turnSteps ?? 0, executionSteps: 0 };
}

/** Model steps taken so far in the session: every batch id in the log is one step. */
async function countModelSteps(log: EventLog, session: string): Promise<number> {
  const batches = new Set<string>();
  for (const { batch } of await log.read(session)) if (batch !== undefined) batches.add(batch);
  return batches.size;
}
