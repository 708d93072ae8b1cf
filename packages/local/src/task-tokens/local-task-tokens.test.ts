import { describe, expect, it } from 'vitest';
import { InMemoryTaskTokenCompletions } from './in-memory-task-token-completions.js';
import { LocalTaskTokens, TASK_TOKEN_POLL_MS } from './local-task-tokens.js';
import type { TaskTokenCompletion, TaskTokenCompletions } from './task-token-completions.js';

const MINUTE = 60_000;

/** A shared store whose takes fail, as DynamoDB Local does once its process is gone. */
class UnreachableCompletions implements TaskTokenCompletions {
  async put(): Promise<void> {}
  async take(): Promise<TaskTokenCompletion | undefined> {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { name: 'ECONNREFUSED' });
  }
}

/** An in-memory shared store that counts the takes of its pollers. */
class CountedCompletions extends InMemoryTaskTokenCompletions {
  takes = 0;
  override take(token: string): Promise<TaskTokenCompletion | undefined> {
    this.takes++;
    return super.take(token);
  }
}

/**
 * Waits `ms`. Timers fire in the order they fall due, however loaded the machine: a timer the code
 * under test set to fall due earlier (a token's expiry, a poll) has fired when this resolves.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LocalTaskTokens', () => {
  it('resolves a wait with the output sent to its token, and then forgets the token', async () => {
    const tokens = new LocalTaskTokens();
    const waiting = tokens.wait('local:a', MINUTE);
    expect(tokens.waiting).toBe(1);
    await tokens.sendTaskSuccess('local:a', { approved: true });
    expect(await waiting).toEqual({ approved: true });
    expect(tokens.waiting).toBe(0);
    await expect(tokens.sendTaskSuccess('local:a', {})).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
  });

  it('rejects a wait with an error named as the failure sent, its message the cause', async () => {
    const tokens = new LocalTaskTokens();
    const waiting = tokens.wait('local:a', MINUTE);
    await tokens.sendTaskFailure('local:a', 'Denied', 'not today');
    await expect(waiting).rejects.toMatchObject({ name: 'Denied', message: 'not today' });
  });

  it('refuses a token no task waits on with TaskDoesNotExist when it has no shared store', async () => {
    const tokens = new LocalTaskTokens();
    await expect(tokens.sendTaskSuccess('local:unknown', {})).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
      message: expect.stringContaining('local:unknown'),
    });
    await expect(tokens.sendTaskFailure('local:unknown', 'Denied')).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('forgets a token once its timeout passed, leaving the wait to the task timeout', async () => {
    const tokens = new LocalTaskTokens();
    void tokens.wait('local:a', 20);
    await sleep(40);
    expect(tokens.waiting).toBe(0);
    await expect(tokens.sendTaskSuccess('local:a', {})).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
  });

  it('completes a token waiting in another process through the shared store', async () => {
    const store = new InMemoryTaskTokenCompletions();
    const engineProcess = new LocalTaskTokens(store);
    const otherProcess = new LocalTaskTokens(store);
    const approved = engineProcess.wait('local:a', MINUTE);
    // Observed at once: the denial may land in the same poll as the approval, before it is awaited.
    const denied = expect(engineProcess.wait('local:b', MINUTE)).rejects.toMatchObject({
      name: 'Denied',
      message: 'elsewhere',
    });
    await otherProcess.sendTaskSuccess('local:a', { approved: true });
    await otherProcess.sendTaskFailure('local:b', 'Denied', 'elsewhere');
    expect(await approved).toEqual({ approved: true });
    await denied;
    expect(engineProcess.waiting).toBe(0);
    expect(await store.take('local:a')).toBeUndefined();
  });

  it('polls the shared store only while a token waits', async () => {
    const store = new CountedCompletions();
    const tokens = new LocalTaskTokens(store);
    await sleep(TASK_TOKEN_POLL_MS * 2);
    expect(store.takes).toBe(0);
    const waiting = tokens.wait('local:a', MINUTE);
    await sleep(TASK_TOKEN_POLL_MS * 2.5);
    const takesWhileWaiting = store.takes;
    expect(takesWhileWaiting).toBeGreaterThan(0);
    await tokens.sendTaskSuccess('local:a', 'here');
    await waiting;
    await sleep(TASK_TOKEN_POLL_MS * 2);
    expect(store.takes).toBe(takesWhileWaiting);
  });

  it('fails a wait with the error of a shared store that cannot be read', async () => {
    const tokens = new LocalTaskTokens(new UnreachableCompletions());
    await expect(tokens.wait('local:a', MINUTE)).rejects.toMatchObject({ name: 'ECONNREFUSED' });
    expect(tokens.waiting).toBe(0);
  });

  it('abandons a wait with the given error and forgets its token', async () => {
    const tokens = new LocalTaskTokens(new InMemoryTaskTokenCompletions());
    const waiting = tokens.wait('local:a', MINUTE);
    tokens.abandon('local:a', new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(tokens.waiting).toBe(0);
  });
});
