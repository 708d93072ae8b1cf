import { functionNameOf } from '../task-states.js';
import type { ExecutionTaskTokens } from './execution-task-tokens.js';
import { withTaskToken } from './task-token-placeholder.js';

/**
 * The local handler of a `lambda:invoke.waitForTaskToken` task: each attempt invokes the function
 * with a fresh token in its payload and, once it returned, waits for the token's completion (which
 * may have come first). Its result is the output sent; a function that throws fails it at once.
 */
export function waitForTaskTokenTask(
  tokens: ExecutionTaskTokens,
  timeoutSeconds: number,
  invoke: (functionName: string, payload: unknown) => Promise<unknown>,
): (parameters: unknown) => Promise<unknown> {
  return async (parameters) => {
    // Runs up to its first await as the engine calls the task: the wait starts before the engine's timeout.
    const { token, completion } = tokens.wait(timeoutSeconds * 1000);
    completion.catch(() => {}); // Awaited once the function returned; never an unhandled rejection.
    const { FunctionName, Payload } = withTaskToken(parameters, token) as {
      FunctionName: string;
      Payload: unknown;
    };
    try {
      await invoke(functionNameOf(FunctionName), Payload);
    } catch (error) {
      tokens.abandon(token, error as Error);
      throw error;
    }
    return completion;
  };
}
