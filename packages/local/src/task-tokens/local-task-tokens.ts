import type { TaskTokens } from '@agentstep/runtime';
import { TaskDoesNotExistError } from './task-does-not-exist-error.js';
import type { TaskTokenCompletion, TaskTokenCompletions } from './task-token-completions.js';

/** How often a process whose tasks wait on tokens takes completions other processes stored. */
export const TASK_TOKEN_POLL_MS = 200;

interface Waiter {
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
  /** Forgets the token once the task's timeout has passed. */
  expiry: NodeJS.Timeout;
}

/**
 * The local engine's task tokens, Step Functions' SendTaskSuccess and SendTaskFailure for tasks
 * on `.waitForTaskToken`. With a completion store shared by several processes, a token whose
 * task waits in another process is completed through the store, which that process polls.
 */
export class LocalTaskTokens implements TaskTokens {
  readonly #waiters = new Map<string, Waiter>();
  readonly #completions: TaskTokenCompletions | undefined;
  /** The next poll of the store: scheduled only while tokens wait and no poll is running. */
  #nextPoll: NodeJS.Timeout | undefined;
  #polling = false;

  /**
   * @param completions where completions go for tasks waiting in other processes, and where this
   * process finds completions for its own. @default none: only this process completes its tokens
   */
  constructor(completions?: TaskTokenCompletions) {
    this.#completions = completions;
  }

  /** How many tokens tasks of this process wait on now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * Ends the task waiting on `token` with `output` as its result. With no task waiting here, the
   * completion goes to the shared store (a task elsewhere may wait); without one, rejects with
   * {@link TaskDoesNotExistError}.
   */
  sendTaskSuccess(token: string, output: unknown): Promise<void> {
    return this.#send(token, { status: 'succeeded', output });
  }

  /**
   * Fails the task waiting on `token` with an error named `error` (which its Retry and Catch
   * match) whose message is `cause`; delivered as {@link sendTaskSuccess} is.
   */
  sendTaskFailure(token: string, error: string, cause?: string): Promise<void> {
    return this.#send(
      token,
      cause === undefined ? { status: 'failed', error } : { status: 'failed', error, cause },
    );
  }

  /**
   * Waits for the completion of `token`: resolves with the output sent, rejects with the failure
   * sent. After `timeoutMs` the token is forgotten and the wait left unsettled: the engine's timeout
   * of the same length, started right after, ends the task with its own `States.Timeout` (which
   * `States.TaskFailed` does not match, unlike an error of ours of that name).
   */
  wait(token: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const expiry = setTimeout(() => this.#forget(token), timeoutMs).unref();
      this.#waiters.set(token, { resolve, reject, expiry });
      this.#schedulePoll();
    });
  }

  /** Ends the wait on `token` with `error` and forgets the token; nothing when no task waits on it. */
  abandon(token: string, error: Error): void {
    this.#waiters.get(token)?.reject(error);
    this.#forget(token);
  }

  async #send(token: string, completion: TaskTokenCompletion): Promise<void> {
    if (this.#settle(token, completion)) return;
    if (this.#completions === undefined) throw new TaskDoesNotExistError(token);
    await this.#completions.put(token, completion);
  }

  /** Settles the wait on `token`; false when no task of this process waits on it. */
  #settle(token: string, completion: TaskTokenCompletion): boolean {
    const waiter = this.#waiters.get(token);
    if (waiter === undefined) return false;
    this.#forget(token);
    if (completion.status === 'succeeded') waiter.resolve(completion.output);
    else waiter.reject(Object.assign(new Error(completion.cause ?? ''), { name: completion.error }));
    return true;
  }

  #forget(token: string): void {
    clearTimeout(this.#waiters.get(token)?.expiry);
    this.#waiters.delete(token);
    if (this.#waiters.size === 0) {
      clearTimeout(this.#nextPoll);
      this.#nextPoll = undefined;
    }
  }

  #schedulePoll(): void {
    const completions = this.#completions;
    if (
      completions === undefined ||
      this.#nextPoll !== undefined ||
      this.#polling ||
      this.#waiters.size === 0
    )
      return;
    this.#nextPoll = setTimeout(() => {
      this.#nextPoll = undefined;
      void this.#poll(completions);
    }, TASK_TOKEN_POLL_MS).unref();
  }

  async #poll(completions: TaskTokenCompletions): Promise<void> {
    this.#polling = true;
    const take = async (token: string) => {
      try {
        const completion = await completions.take(token);
        if (completion !== undefined) this.#settle(token, completion);
      } catch (error) {
        // The store failed: the task fails with its error, which the task's Retry and Catch route.
        this.abandon(token, error as Error);
      }
    };
    await Promise.all([...this.#waiters.keys()].map(take));
    this.#polling = false;
    this.#schedulePoll();
  }
}
