import type { TaskTokenCompletion, TaskTokenCompletions } from './task-token-completions.js';

/** {@link TaskTokenCompletions} in process memory, with the same contract as DynamoDB. */
export class InMemoryTaskTokenCompletions implements TaskTokenCompletions {
  readonly #completions = new Map<string, TaskTokenCompletion>();

  async put(token: string, completion: TaskTokenCompletion): Promise<void> {
    this.#completions.set(token, structuredClone(completion));
  }

  async take(token: string): Promise<TaskTokenCompletion | undefined> {
    const completion = this.#completions.get(token);
    this.#completions.delete(token);
    return completion;
  }
}
