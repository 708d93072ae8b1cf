import {
  type AdvanceTurnInput,
  APPROVAL_CALL_WEIGHT,
  type ClosedBatch,
  historyNearlyFull,
  type ModelStepOutput,
} from '@agentstep/protocol';
import type { AppendResult } from '../event-log/event-log.js';
import { type AppendResultsDeps, appendResults } from './append-results.js';

/**
 * Ends a loop iteration: appends the batch's result and decides where the loop goes next — the
 * next model step, a fresh execution (after `stepsPerExecution` steps, or before the execution's
 * history could grow past Step Functions' limit), or the step limit. Also where the result landed.
 */
export async function closeBatch(
  input: AdvanceTurnInput,
  deps: AppendResultsDeps,
): Promise<{ state: ClosedBatch; appended: AppendResult }> {
  const appended = await appendResults(
    input,
    deps,
    'The call produced no result: its tool function did not report back.',
  );
  return { state: nextState(input), appended };
}

/** Where the loop goes after the batch of `input`. */
function nextState(input: ModelStepOutput): ClosedBatch {
  const turnSteps = input.turnSteps + 1;
  const executionSteps = input.executionSteps + 1;
  // A call that waited for approval ran more tasks: it counts for more of the history.
  const executionCalls =
    input.executionCalls +
    input.calls.reduce((sum, call) => sum + (call.approval ? APPROVAL_CALL_WEIGHT : 1), 0);
  return {
    session: input.session,
    turn: input.turn,
    toolExecution: input.toolExecution,
    maxSteps: input.maxSteps,
    stepsPerExecution: input.stepsPerExecution,
    ...(input.repeatedCalls === undefined ? {} : { repeatedCalls: input.repeatedCalls }),
    ...(input.stepsWithoutProgress === undefined ? {} : { stepsWithoutProgress: input.stepsWithoutProgress }),
    step: input.step + 1,
    turnSteps,
    executionSteps,
    executionCalls,
    budget: input.budget,
    startedAt: input.startedAt,
    request: input.request,
    next:
      turnSteps >= input.maxSteps
        ? 'limit'
        : executionSteps >= input.stepsPerExecution || historyNearlyFull(executionSteps, executionCalls)
          ? 'continue'
          : 'model',
  };
}
