import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import type { ApiDeps } from './api-deps.js';
import { DEFAULT_POLL_MS, waitForLog } from './follow-log.js';

/** The turn to wait for: its log (by the id it is stored under), its id, and the last event logged before it began. */
export interface AwaitedTurn {
  stored: string;
  turn: string;
  after: number;
}

/** What a wait sees on its way, and when it gives up. */
export interface TurnEndWatch {
  /** Sees every event logged after `after`, oldest first, up to the turn's end. */
  onEvent?: (logged: StoredEvent) => Promise<void>;
  /** Stops the wait: it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** When the wait stops (ms since the epoch): it then answers `undefined`. @default never */
  deadline?: number;
}

/**
 * The turn's terminal `turn_end` event, once it is logged, or `undefined` when `deadline` passes
 * first: reads the log as it grows (woken by `deps.changes` when the API has them, else every
 * `deps.pollMs`), handing each new event to `onEvent` on the way.
 */
export async function mcpTurnEnd(
  deps: ApiDeps,
  { stored, turn, after }: AwaitedTurn,
  { onEvent, signal, deadline = Number.POSITIVE_INFINITY }: TurnEndWatch = {},
): Promise<WireEventOf<'turn_end'> | undefined> {
  let seq = after;
  for (;;) {
    signal?.throwIfAborted();
    // Read before the log, so that an append between the read and the wait wakes the wait at once.
    const seen = deps.changes?.version(stored);
    for (const logged of await deps.log.read(stored, { afterSeq: seq })) {
      seq = logged.seq;
      await onEvent?.(logged);
      const { event } = logged;
      if (event.type === 'turn_end' && event.payload.turn === turn) return event;
    }
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await quiet(waitForLog(deps, stored, Math.min(deps.pollMs ?? DEFAULT_POLL_MS, left), seen), signal);
  }
}

/** Settles when `changed` does, or at once when `signal` aborts. */
function quiet(changed: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return changed;
  return new Promise((settle) => {
    const stop = () => settle();
    signal.addEventListener('abort', stop, { once: true });
    void changed.then(() => {
      signal.removeEventListener('abort', stop);
      settle();
    });
  });
}
