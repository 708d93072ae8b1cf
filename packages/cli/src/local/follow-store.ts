import type { LocalExecutionStarter } from '@agentstep/local';
import type { OpenStore } from './open-store.js';

/**
 * Follows the store under the turns this process runs. When it stops (DynamoDB Local exited or was
 * killed), every running turn is stopped: none of them can write any more. Once it serves again
 * (the connection rejoins it by itself), those turns are closed as failed, one failure result per
 * open call, their sessions freed, along with any turn another process left open on the store.
 * `notice` hears both. Returns how to stop following; a store that cannot stop gives nothing to follow.
 */
export function followStore(
  store: OpenStore,
  starter: LocalExecutionStarter,
  notice: (text: string) => void,
): () => void {
  let stopped: Promise<unknown> = Promise.resolve();
  const follow = store.onChange?.((change) => {
    if (change === 'lost') {
      const running = starter.running();
      notice(`the store stopped; stopping ${turns(running.length)} that ran on it, and joining it again.`);
      // Settled once each run has ended: only then is a turn it could not close left to close.
      stopped = Promise.allSettled(
        running.map(async (turn) => {
          await starter.stop(turn);
          await starter.finished(turn.execution);
        }),
      );
      return;
    }
    void stopped
      .then(() => starter.closeOrphans())
      .then((closed) => notice(`the store is back; closed ${turns(closed.length)} left open.`))
      .catch((error: unknown) =>
        notice(`the store is back, but closing its stopped turns failed: ${String(error)}`),
      );
  });
  return follow ?? (() => {});
}

function turns(count: number): string {
  return count === 1 ? '1 turn' : `${count} turns`;
}
