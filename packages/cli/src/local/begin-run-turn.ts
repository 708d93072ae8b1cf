import { setTimeout as sleep } from 'node:timers/promises';
import type { LocalExecutionStarter } from '@agentstep/local';
import type { IfBusy } from '@agentstep/protocol';
import {
  type BegunTurn,
  beginTurn,
  type CancelDeps,
  cancelTurn,
  NoTurnRunningError,
  randomIds,
  type StartQueuedTurnDeps,
  startQueuedTurn,
  type TurnRequest,
  userMessageKey,
} from '@agentstep/runtime';

/** How often a queued run looks whether its session is free. */
const POLL_MS = 250;

/** What beginning the run's turn needs: the stores, the queue and this process's starter. */
export type BeginRunTurnDeps = StartQueuedTurnDeps & CancelDeps & { starter: LocalExecutionStarter };

/**
 * Begins the run's turn in this process, as `--if-busy` says when another turn holds the session:
 * refused (`reject`: SessionBusy), or queued (decision 0033) behind it (`enqueue`) or before every
 * queued message, that turn cancelled (`interrupt`). A queued run starts the turns queued ahead of
 * it here as the session frees, then its own. `undefined`, said through `notice`, when another
 * process started its turn (follow it there) or its message was withdrawn.
 */
export async function beginRunTurn(
  request: TurnRequest & { session: string },
  ifBusy: IfBusy,
  deps: BeginRunTurnDeps,
  notice: (text: string) => void,
): Promise<BegunTurn | undefined> {
  if (ifBusy === 'reject') return beginTurn(request, deps);
  const { session, prompt, limits } = request;
  const turn = randomIds.turn();
  const message = { turn, prompt, queuedAt: deps.clock.now(), ...(limits ? { limits } : {}) };
  await deps.queue.enqueue(session, message, ifBusy === 'interrupt' ? 'first' : 'last');
  if (ifBusy === 'interrupt') await cancelRunning(session, deps);
  let told = false;
  for (;;) {
    const begun = await startQueuedTurn(session, deps);
    if (begun?.turn === turn) return begun;
    // A message queued ahead of this one: its turn runs here, then this one's may start.
    if (begun !== undefined) {
      await deps.starter.finished(begun.execution).catch(() => {});
      continue;
    }
    // The queue before the log: a turn that starts in between is in the log read after it.
    const queued = (await deps.queue.list(session)).some((message) => message.turn === turn);
    if (await deps.log.appended(session, userMessageKey(turn))) {
      notice(`turn ${turn} was started by another process; follow it with \`agentstep events ${session}\`.`);
      return undefined;
    }
    if (!queued) {
      notice(`the message of turn ${turn} was withdrawn before its turn started.`);
      return undefined;
    }
    if (!told)
      notice(`session ${session} is busy: turn ${turn} is queued and starts when the session is free.`);
    told = true;
    await sleep(POLL_MS);
  }
}

/** Cancels the session's running turn and waits for its end, if a turn runs. */
async function cancelRunning(session: string, deps: CancelDeps): Promise<void> {
  try {
    await cancelTurn(session, deps);
  } catch (error) {
    if (!(error instanceof NoTurnRunningError)) throw error;
  }
}
