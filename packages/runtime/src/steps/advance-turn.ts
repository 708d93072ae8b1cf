import type { AdvanceTurnInput, AdvanceTurnOutput, ModelStepOutput } from '@agentstep/protocol';
import { type AppendResult, DEFAULT_LEASE_MS, type LogSnapshot } from '../event-log/event-log.js';
import type { AppendResultsDeps } from './append-results.js';
import { closeBatch } from './close-batch.js';
import { modelStep } from './model-step.js';
import type { ModelStepDeps } from './model-step-deps.js';

/**
 * Closes a batch and takes the next model step in one task: records the batch's results, then,
 * unless the turn must stop or continue in a fresh execution, runs the next model step. Fusing the
 * two keeps a loop iteration at 3 + N state transitions for N calls. Both halves are idempotent,
 * so a re-delivery changes nothing.
 */
export async function advanceTurn(
  input: AdvanceTurnInput,
  deps: ModelStepDeps & AppendResultsDeps,
): Promise<AdvanceTurnOutput> {
  const { state, appended } = await closeBatch(input, deps);
  if (state.next !== 'model') return { ...state, next: state.next };
  return modelStep(state, deps, knownSnapshot(input, appended, deps));
}

/**
 * The log and head as the result's own append left them, when this process holds every event up
 * to it: the next model step then reads nothing before calling the model. Only after a fresh
 * append (a replay may have been followed by anything): it landed at the log's end, so the turn
 * still holds the session, no later step exists (the last step logged is the batch's own), and
 * the append said whether a cancel had come.
 */
function knownSnapshot(
  input: ModelStepOutput,
  appended: AppendResult,
  deps: ModelStepDeps,
): LogSnapshot | undefined {
  if (appended.replayed || appended.cancelRequested === undefined) return undefined;
  const held = deps.log.heldThrough?.(input.session, appended.firstSeq + appended.count - 1);
  if (held === undefined) return undefined;
  const holder = {
    turn: input.turn,
    leaseUntil: deps.clock.now() + DEFAULT_LEASE_MS,
    cancelRequested: appended.cancelRequested,
  };
  return { ...held, holder, mark: input.batch };
}
