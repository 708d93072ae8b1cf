import type { ApprovalTokenStore } from './approval-token-store.js';
import type { TaskTokens } from './task-tokens.js';

/** Task-token errors that mean no task waits on the token any more: nothing left to wake. */
const GONE = new Set(['TaskDoesNotExist', 'TaskTimedOut', 'InvalidToken']);

/**
 * Wakes the task of a call whose approval was just settled, so it runs or fails the call. A call
 * whose task has not started waiting has no token yet: it finds the settlement when it does. A
 * token no task waits on any more (the wait timed out, the execution stopped) is left alone.
 */
export async function wakeWaitingCall(
  session: string,
  approval: string,
  deps: { approvalTokens: ApprovalTokenStore; taskTokens: TaskTokens },
): Promise<void> {
  const token = await deps.approvalTokens.get(session, approval);
  if (token === undefined) return;
  try {
    await deps.taskTokens.sendTaskSuccess(token, { approval });
  } catch (error) {
    if (!(error instanceof Error && GONE.has(error.name))) throw error;
  }
}
