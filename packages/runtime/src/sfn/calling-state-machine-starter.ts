import type { ExecutionStarter } from '../session/execution-starter.js';
import type { ToolContext } from '../tools/define-tool.js';
import { StepFunctionsStarter } from './step-functions-starter.js';

/**
 * A {@link StepFunctionsStarter} on the state machine whose execution runs the call, as InvokeTool's
 * payload names it (`$$.StateMachine.Id`): sub-agents run on the caller's own loop and model.
 */
export function callingStateMachineStarter(context: Pick<ToolContext, 'stateMachine'>): ExecutionStarter {
  if (context.stateMachine === undefined) {
    throw new Error(
      "The call's payload names no state machine (InvokeTool's `stateMachine`, from `$$.StateMachine.Id`), so no sub-agent can start: deploy the state machine with this version's definition.",
    );
  }
  return new StepFunctionsStarter({ stateMachineArn: context.stateMachine });
}
