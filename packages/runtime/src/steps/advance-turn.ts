import type { AdvanceTurnOutput, ModelStepOutput } from '@agentstep/protocol';
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
  input: ModelStepOutput,
  deps: ModelStepDeps & AppendResultsDeps,
): Promise<AdvanceTurnOutput> {
  const state = await closeBatch(input, deps);
  if (state.next !== 'model') return { ...state, next: state.next };
  return modelStep(state, deps);
}
