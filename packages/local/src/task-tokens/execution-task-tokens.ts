import { randomUUID } from 'node:crypto';
import type { LocalTaskTokens } from './local-task-tokens.js';

/**
 * Why a task stops waiting: its execution ended first. Neither retried nor caught (the engine's
 * `isRetryable`/`isCatchable`), as a stopped execution runs no further state.
 */
function executionEnded(): Error {
  return Object.assign(new Error('The execution ended while the task waited for its task token.'), {
    name: 'ExecutionEnded',
    isRetryable: false,
    isCatchable: false,
  });
}

/**
 * The task tokens of one execution. When the execution ends, however it ends (stopped, failed,
 * timed out, over a limit), the tokens its tasks still wait on are abandoned, which settles the
 * engine's wait and clears its timeout timer.
 */
export class ExecutionTaskTokens {
  readonly #taskTokens: LocalTaskTokens;
  readonly #tokens = new Set<string>();
  #ended = false;

  constructor(taskTokens: LocalTaskTokens) {
    this.#taskTokens = taskTokens;
  }

  /**
   * A fresh token (`local:` and a UUID) for one attempt of a task, and its completion (see
   * `LocalTaskTokens.wait`). Throws once the execution ended (a retry of a task whose function
   * failed as the execution was stopped), so that nothing is invoked or waited for any more.
   */
  wait(timeoutMs: number): { token: string; completion: Promise<unknown> } {
    if (this.#ended) throw executionEnded();
    const token = `local:${randomUUID()}`;
    this.#tokens.add(token);
    return { token, completion: this.#taskTokens.wait(token, timeoutMs) };
  }

  /** Ends the wait on `token` with `error` (see `LocalTaskTokens.abandon`). */
  abandon(token: string, error: Error): void {
    this.#tokens.delete(token);
    this.#taskTokens.abandon(token, error);
  }

  /** Abandons every token the execution's tasks still wait on. */
  end(): void {
    this.#ended = true;
    for (const token of this.#tokens) this.#taskTokens.abandon(token, executionEnded());
    this.#tokens.clear();
  }
}
