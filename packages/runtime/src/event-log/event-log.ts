import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import type { ContextStart } from './context-start.js';

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
  /** Frees the session in the same atomic write: the turn's last append (its terminal record). */
  release?: boolean;
  /**
   * Holds the session for the turn until then (ms since the epoch), however long it goes without
   * appending, while its calls wait for people; replaces an earlier hold, and `0` ends it. The
   * lease still applies after the hold.
   */
  holdUntil?: number;
  /**
   * A small JSON value kept with the append's idempotency marker, written atomically with its
   * first events (or alone, for an append without events); a replay keeps the first note.
   */
  note?: AppendNote;
  /**
   * Kept on the session's head as its mark until an append sets another, and returned by
   * `snapshot`: a model step names itself, so the next one tells from the same read that takes
   * its context whether its own append may have landed already (then it reads the marker). The
   * append's note is kept with it when small (`keptNote`): the next step reads it with no read of
   * its own.
   */
  mark?: string;
  /**
   * Tell in the result whether the holding turn was asked to stop by the time the append landed
   * (`cancelRequested`); the append is made either way. A model step asks, so its calls are not
   * run after a cancel that came while the model streamed, with no read of its own.
   */
  reportCancel?: boolean;
  /**
   * Set by a compaction's append, in the same atomic write: where a model step's context starts
   * from now on, and what the running turn carries from before it (decision 0039). Returned by
   * `snapshot` with `fromContext`.
   */
  contextStart?: ContextStart;
}

/** What an append may note beside its events: a small JSON object (kept well under 100 KB). */
export type AppendNote = Readonly<Record<string, unknown>>;

/** The longest note kept with a mark on the session's head, as JSON: the head stays within 1 KB. */
const MARK_NOTE_CHARS = 700;

/** A marking append's note as the head keeps it (JSON), or `undefined` when it has none or it is too long. */
export function keptNote(note: AppendNote | undefined): string | undefined {
  const json = note === undefined ? undefined : JSON.stringify(note);
  return json !== undefined && json.length <= MARK_NOTE_CHARS ? json : undefined;
}

/** What an idempotency key's first append left in the log. */
export interface Appended {
  /** `seq` of its first event; the next free seq then, when `count` is 0. */
  firstSeq: number;
  /** How many of its events the log holds. */
  count: number;
  note?: AppendNote;
}

/** The turn that holds a session. */
export interface SessionHolder {
  turn: string;
  /** When its lease (or a longer hold, see `holdUntil`) expires unless it writes, in ms since the epoch. */
  leaseUntil: number;
  /** It was asked to stop (`requestCancel`). */
  cancelRequested: boolean;
}

/** Whether `turn` holds its session and was asked to stop, as `holder` says. */
export function isCancelled(holder: SessionHolder | undefined, turn: string): boolean {
  return holder?.turn === turn && holder.cancelRequested;
}

/** Where an append landed. */
export interface AppendResult {
  /** `seq` of the first appended event (seqs start at 1); the next free seq when `count` is 0. */
  firstSeq: number;
  count: number;
  /**
   * True when this key had been appended before: nothing was written now (or, for an append of
   * several parts, not all of it was: its events are not all this request's).
   */
  replayed: boolean;
  /** With `reportCancel`: whether the turn had been asked to stop when the append landed. */
  cancelRequested?: boolean;
}

/** A session's events and its head, as one read found them. */
export interface LogSnapshot {
  /** The events after the `afterSeq` asked for, in `seq` order. */
  events: StoredEvent[];
  /** The turn holding the session, if one does. */
  holder: SessionHolder | undefined;
  /** The `mark` of the last append that set one. */
  mark: string | undefined;
  /** That append's note, when it had one small enough to keep with the mark (`keptNote`). */
  markNote?: AppendNote;
  /**
   * With `fromContext`: the context start the latest compaction set, when the session has one. The
   * events may start before its `from`, never after it.
   */
  start?: ContextStart;
}

/** How to read a snapshot. */
export interface SnapshotOptions {
  /** Only the events after this seq. @default 0 */
  afterSeq?: number;
  /**
   * Start no earlier than where a model step's context starts (the session's `contextStart`): the
   * events before it are left out where the store can skip them, and `start` says what they carried.
   * @default false
   */
  fromContext?: boolean;
}

/** The events a process holds of a session without reading: from seq 1, or from the context's start. */
export interface HeldLog {
  events: StoredEvent[];
  /** The session's context start, when the events may start after seq 1. */
  start?: ContextStart;
}

/** How a turn takes its session's lease. */
export interface LeaseOptions {
  /**
   * How long the lease lasts without a write; every append by the holder renews it.
   * @default - the length the session's lease has now, else DEFAULT_LEASE_MS
   */
  leaseMs?: number;
  /** Take the session even from a holder whose lease has not expired yet. @default false */
  takeOver?: boolean;
}

/** What taking a lease found. */
export interface LeaseTaken {
  /** The other turn that held the session and lost it (its lease had expired, or `takeOver`). */
  previous?: string;
}

/**
 * How long a turn holds its session without a write before another turn may take it over: longer
 * than the longest gap between two appends of a running turn (a 5-minute model step retried up to
 * four times, or a 5-minute tool call retried three times).
 */
export const DEFAULT_LEASE_MS = 30 * 60 * 1000;

/**
 * Where a forked session's log starts: its parent's events up to and including `seq`, read from
 * the parent's log (shared by reference, never copied), with the fork's own events after them.
 */
export interface ForkOrigin {
  /** The session forked from, as the log stores it. */
  session: string;
  /** The parent's last event the fork shares. */
  seq: number;
}

/** How {@link EventLog.fork} tells a retry from a second fork into the same session. */
export interface ForkOptions {
  /**
   * The fork request's idempotency key, kept with the fork: forking again with the same key and
   * origin is a retry whatever the fork has done since.
   * @default - none: only a fork still untouched is a retry
   */
  key?: string;
}

/**
 * A session's append-only event log (C2, C3): gap-free `seq` from 1, idempotent appends, one
 * writing turn per session at a time, holding the session by a lease that its appends renew.
 */
export interface EventLog {
  /** Appends events after the session's last one and renews the lease; replays return the first result (C3). */
  append(request: AppendRequest): Promise<AppendResult>;
  /** What the first append with `key` left, note included; `undefined` if none was ever made. */
  appended(session: string, key: string): Promise<Appended | undefined>;
  /** The session's events in `seq` order, after `afterSeq` when given; content always whole. */
  read(session: string, options?: { afterSeq?: number }): Promise<StoredEvent[]>;
  /**
   * What `read` gives, with the session's holder and mark, in one round trip where the store
   * allows: what a model step needs before it calls the model.
   */
  snapshot(session: string, options?: SnapshotOptions): Promise<LogSnapshot>;
  /**
   * Makes `turn` the session's only writer, by a lease: free sessions, the same turn again and
   * expired leases are taken; another live holder throws SessionBusy unless `takeOver`.
   */
  acquireTurn(session: string, turn: string, options?: LeaseOptions): Promise<LeaseTaken>;
  /** The turn holding the session, if one does: its lease, and whether it was asked to stop. */
  holder(session: string): Promise<SessionHolder | undefined>;
  /**
   * Asks `turn` to stop: the loop checks before each model step and each tool batch. False, and
   * nothing recorded, when `turn` does not hold the session.
   */
  requestCancel(session: string, turn: string): Promise<boolean>;
  /**
   * Makes `session` a fork of `origin` in one write, whatever the length of the shared prefix: its
   * reads give the parent's events up to `origin.seq` (seqs kept, `session` its own) then its own,
   * whose seqs go on from there. Forking again with the same origin is a retry and changes nothing
   * while the fork is untouched (no events of its own, no turn holding it), or at any time with the
   * `key` it was made with; any other session that exists (a fork that has been used, one from
   * elsewhere, a session that is no fork) throws SessionExistsError. The caller checks `origin`
   * against the parent.
   */
  fork(session: string, origin: ForkOrigin, options?: ForkOptions): Promise<void>;
  /** The session's fork origin, or `undefined` when it was not forked. */
  origin(session: string): Promise<ForkOrigin | undefined>;
  /**
   * The session's events up to and including `seq` (from seq 1, or from the context's start after a
   * `fromContext` snapshot), when this process already holds all of them (a log that caches, having
   * read or appended them itself); `undefined` when it would have to read. Optional: a log without
   * a cache has none.
   */
  heldThrough?(session: string, seq: number): HeldLog | undefined;
}
