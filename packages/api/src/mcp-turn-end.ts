import type { StoredEvent, WireEvent } from '@agentstep/protocol';
import type { ApiDeps } from './api-deps.js';
import { DEFAULT_POLL_MS } from './follow-log.js';
import { sessionFeedsOf } from './session-feeds.js';

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
  /** Also stops at the first event after `after` that this holds for, and answers it. @default at the turn's end only */
  stopAt?: (logged: StoredEvent) => boolean;
}

/**
 * The turn's terminal `turn_end` event, once it is logged (or the first event `stopAt` holds for),
 * or `undefined` when `deadline` passes first: reads the log, then follows it through the session's
 * shared reader (`sessionFeedsOf`), handing each new event to `onEvent` on the way.
 */
export async function mcpTurnEnd(
  deps: ApiDeps,
  { stored, turn, after }: AwaitedTurn,
  { onEvent, signal, deadline = Number.POSITIVE_INFINITY, stopAt }: TurnEndWatch = {},
): Promise<WireEvent | undefined> {
  signal?.throwIfAborted();
  // Read before the log, so that an append between the read and the wait wakes the wait at once.
  const seen = deps.changes?.version(stored);
  let events = await deps.log.read(stored, { afterSeq: after });
  let seq = events.at(-1)?.seq ?? after;
  // Then the session's shared reader: each change is read once for every stream and wait of the session.
  const feeds = sessionFeedsOf(deps);
  let seat = feeds.join(stored, { seq, seen });
  try {
    for (;;) {
      for (const logged of events) {
        seq = logged.seq;
        await onEvent?.(logged);
        const { event } = logged;
        if ((event.type === 'turn_end' && event.payload.turn === turn) || stopAt?.(logged)) return event;
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await quiet(seat.next(Math.min(deps.pollMs ?? DEFAULT_POLL_MS, left)), signal);
      signal?.throwIfAborted();
      const read = await seat.take();
      if (read === undefined) {
        // Fallen behind the reader (its progress went out slowly): a new place reads its gap once.
        seat.leave();
        seat = feeds.join(stored, { seq, seen: undefined });
      }
      events = read?.events ?? [];
    }
  } finally {
    seat.leave();
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
