import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';

/** An event to append: the wire event and the storage fields the log does not assign itself. */
export interface NewEvent {
  event: PersistedEvent;
  batch?: string;
  position?: number;
}

/** One atomic, idempotent append. */
export interface AppendRequest {
  session: string;
  /** The turn that holds the session; appends from any other turn are refused. */
  turn: string;
  /** Idempotency key: appending the same key again writes nothing and returns the first result. */
  key: string;
  events: readonly NewEvent[];
  /**
   * The seq the caller expects the first event to get, when it has just read the log. Adapters may
   * use it to skip reading the session head; a wrong hint costs a retry, never a wrong append.
   */
  expectedSeq?: number;
}

/** Where an append landed. */
export interface AppendResult {
  /** `seq` of the first appended event (seqs start at 1); the next free seq when `count` is 0. */
  firstSeq: number;
  count: number;
  /** True when this key had been appended before and nothing was written now. */
  replayed: boolean;
}

/**
 * A session's append-only event log (C2, C3): gap-free `seq` from 1, idempotent appends, one
 * writing turn per session at a time.
 */
export interface EventLog {
  /** Appends events after the session's last one; replays return the first result (C3). */
  append(request: AppendRequest): Promise<AppendResult>;
  /** The session's events in `seq` order, after `afterSeq` when given; content always whole. */
  read(session: string, options?: { afterSeq?: number }): Promise<StoredEvent[]>;
  /** Makes `turn` the session's only writer; the same turn may acquire again. Throws SessionBusy. */
  acquireTurn(session: string, turn: string): Promise<void>;
  /** Frees the session if `turn` holds it; otherwise does nothing. */
  releaseTurn(session: string, turn: string): Promise<void>;
}
