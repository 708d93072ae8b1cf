import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import type { ApiDeps } from './api-deps.js';

const DEFAULT_POLL_MS = 250;

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
}

/**
 * The turn's terminal `turn_end` event, once it is logged: reads the log as it grows (woken by
 * `deps.changes` when the API has them, else every `deps.pollMs`), handing each new event to
 * `onEvent` on the way.
 */
export async function mcpTurnEnd(
  deps: Pick<ApiDeps, 'log' | 'changes' | 'pollMs'>,
  { stored, turn, after }: AwaitedTurn,
  { onEvent, signal }: TurnEndWatch = {},
): Promise<WireEventOf<'turn_end'>> {
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
    await quiet(deps, stored, seen, signal);
  }
}

/** Settles at the log's next change, after the poll interval, or when `signal` aborts. */
function quiet(
  deps: Pick<ApiDeps, 'changes' | 'pollMs'>,
  stored: string,
  seen: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const ms = deps.pollMs ?? DEFAULT_POLL_MS;
  const changed = deps.changes
    ? deps.changes.wait(stored, ms, seen)
    : new Promise<void>((settle) => setTimeout(settle, ms));
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
