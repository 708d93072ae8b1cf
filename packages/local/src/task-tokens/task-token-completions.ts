/** How a task token was completed: with an output (SendTaskSuccess) or a failure (SendTaskFailure). */
export type TaskTokenCompletion =
  | { status: 'succeeded'; output: unknown }
  | { status: 'failed'; error: string; cause?: string };

/**
 * Completions on their way to a task waiting in another process: the process that sends puts
 * them, the process whose task waits takes them. Each token's completion is taken at most once.
 */
export interface TaskTokenCompletions {
  /** Stores the completion of `token` (a later put for the same token replaces it). */
  put(token: string, completion: TaskTokenCompletion): Promise<void>;
  /** Removes and returns the completion of `token`, if one is stored. */
  take(token: string): Promise<TaskTokenCompletion | undefined>;
}
