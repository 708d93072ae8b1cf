import { SessionBusyError } from '../errors.js';
import { type BegunTurn, beginTurn } from '../session/begin-turn.js';
import type { ExecutionStarter } from '../session/execution-starter.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import { userMessageKey } from '../steps/submit-turn.js';
import type { TurnQueue } from './turn-queue.js';

/** What starting a queued message's turn needs: the stores, the queue and how executions start. */
export type StartQueuedTurnDeps = AppendResultsDeps & { queue: TurnQueue; starter: ExecutionStarter };

/**
 * Starts the turn of `session`'s first queued message when no turn holds the session (decision
 * 0033); `undefined` when a turn runs (its end starts the next) or nothing is queued. The message is
 * claimed first, so it can no longer be withdrawn, and removed once its turn has begun. Hosts call
 * it at every turn's end and after every enqueue; a message whose turn was begun already (by another
 * host, or one that died after beginning it) is only removed, so no host begins a turn twice. A
 * start that fails before the message is logged (the store) leaves it queued and claimed, for the
 * next try.
 */
export async function startQueuedTurn(
  session: string,
  deps: StartQueuedTurnDeps,
): Promise<BegunTurn | undefined> {
  for (const next of await deps.queue.list(session)) {
    const holder = await deps.log.holder(session);
    if (holder !== undefined && holder.turn !== next.turn && holder.leaseUntil >= deps.clock.now())
      return undefined;
    if (!(await deps.queue.claim(session, next.turn))) continue;
    if (await begunAlready(session, next.turn, deps)) {
      await deps.queue.remove(session, next.turn);
      continue;
    }
    try {
      const begun = await beginTurn(
        { session, prompt: next.prompt, ...(next.limits ? { limits: next.limits } : {}) },
        { ...deps, ids: { session: () => session, turn: () => next.turn } },
      );
      await deps.queue.remove(session, next.turn);
      return begun;
    } catch (error) {
      // Another turn took the session first: this message waits for that turn's end.
      if (error instanceof SessionBusyError) return undefined;
      // Its execution did not start: beginTurn ended the turn failed in the log, so it leaves the queue.
      if (await begunAlready(session, next.turn, deps)) await deps.queue.remove(session, next.turn);
      throw error;
    }
  }
  return undefined;
}

/** Whether the queued turn's message is in the log: its turn was begun. */
async function begunAlready(session: string, turn: string, deps: StartQueuedTurnDeps): Promise<boolean> {
  return (await deps.log.appended(session, userMessageKey(turn))) !== undefined;
}
