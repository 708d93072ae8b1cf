/**
 * Ends tasks that wait for a task token (`.waitForTaskToken`): Step Functions' `SendTaskSuccess`
 * deployed, the local engine's own tokens locally.
 */
export interface TaskTokens {
  /**
   * Ends the task waiting on `token` with `output` as its result. Rejects with an error named
   * `TaskDoesNotExist` or `TaskTimedOut` when no task waits on it (any more).
   */
  sendTaskSuccess(token: string, output: unknown): Promise<void>;
}
