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
 * it at every turn's end and after every enqueue; two hosts at once begin the same turn once (its id
 * was fixed when it was queued). A message whose turn was begun before (a host died after beginning
 * it) is only removed.
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
    if (holder?.turn !== next.turn && (await deps.log.appended(session, userMessageKey(next.turn)))) {
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
      // It could not start (its turn ended failed in the log): it leaves the queue.
      await deps.queue.remove(session, next.turn);
      throw error;
    }
  }
  return undefined;
}
