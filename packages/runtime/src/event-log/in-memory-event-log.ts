import { deepFreeze, type StoredEvent } from '@agentstep/protocol';
import { type Clock, systemClock } from '../clock/clock.js';
import { SessionBusyError, SessionExistsError } from '../errors.js';
import type { ContextStart } from './context-start.js';
import {
  type Appended,
  type AppendNote,
  type AppendRequest,
  type AppendResult,
  DEFAULT_LEASE_MS,
  type EventLog,
  type ForkOptions,
  type ForkOrigin,
  keptNote,
  type LeaseOptions,
  type LeaseTaken,
  type LogSnapshot,
  type SessionHolder,
  type SnapshotOptions,
} from './event-log.js';
import { toStoredEvent } from './to-stored-event.js';

interface Lease {
  turn: string;
  leaseMs: number;
  until: number;
  /** Held until then whatever `until` says (`AppendRequest.holdUntil`). */
  holdUntil?: number;
}

/** When a lease stops keeping other turns out: its own end, or its hold's if later. */
function leaseEnd(lease: Lease): number {
  return Math.max(lease.until, lease.holdUntil ?? 0);
}

interface SessionState {
  events: StoredEvent[];
  /** By idempotency key, in the order the appends were made. */
  appends: Map<string, Appended>;
  lease?: Lease;
  /** The turn asked to stop, if any (it matters while that turn holds the lease). */
  cancelTurn?: string;
  /** Where a fork's log starts: `events` are its own, after the origin's seq. */
  origin?: ForkOrigin;
  /** The idempotency key the fork was made with (`ForkOptions.key`). */
  forkKey?: string;
  /** The last mark an append set (`AppendRequest.mark`), and its note as the head keeps it (`keptNote`). */
  mark?: string;
  markNote?: string | undefined;
  /** The last context start an append set (`AppendRequest.contextStart`). */
  contextStart?: ContextStart;
}

/**
 * An {@link EventLog} in process memory: the same contract as DynamoDB, for unit tests and for
 * running without Java. Stored events are copied in and frozen, and reads hand out the frozen
 * events themselves (views, not copies: issue 39), so callers cannot alter the log.
 */
export class InMemoryEventLog implements EventLog {
  readonly #sessions = new Map<string, SessionState>();
  readonly #clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async append(request: AppendRequest): Promise<AppendResult> {
    const { session, turn, key, events, release, note } = request;
    const state = this.#session(session);
    const previous = state.appends.get(key);
    if (previous !== undefined)
      return {
        firstSeq: previous.firstSeq,
        count: previous.count,
        replayed: true,
        ...this.#cancelReport(state, request),
      };
    const { lease } = state;
    if (lease?.turn !== turn) throw new SessionBusyError(session, lease?.turn, turn);
    const firstSeq = (state.origin?.seq ?? 0) + state.events.length + 1;
    // Stored frozen, so reads share them (views, not copies) and no reader can alter them.
    events.forEach((event, index) => {
      state.events.push(deepFreeze(structuredClone(toStoredEvent(session, firstSeq + index, event))));
    });
    const count = events.length;
    state.appends.set(key, {
      firstSeq,
      count,
      ...(note === undefined ? {} : { note: structuredClone(note) }),
    });
    if (release) delete state.lease;
    else renew(lease, this.#clock.now(), request.holdUntil);
    if (request.mark !== undefined) {
      state.mark = request.mark;
      state.markNote = keptNote(note);
    }
    if (request.contextStart !== undefined)
      state.contextStart = deepFreeze(structuredClone(request.contextStart));
    return { firstSeq, count, replayed: false, ...this.#cancelReport(state, request) };
  }

  async snapshot(session: string, options: SnapshotOptions = {}): Promise<LogSnapshot> {
    const state = this.#sessions.get(session);
    const start = options.fromContext ? state?.contextStart : undefined;
    const afterSeq = Math.max(options.afterSeq ?? 0, (start?.from ?? 1) - 1);
    return {
      events: await this.read(session, { afterSeq }),
      holder: await this.holder(session),
      mark: state?.mark,
      ...(state?.markNote === undefined ? {} : { markNote: JSON.parse(state.markNote) as AppendNote }),
      ...(start === undefined ? {} : { start }),
    };
  }

  async appended(session: string, key: string): Promise<Appended | undefined> {
    const appended = this.#sessions.get(session)?.appends.get(key);
    return appended && structuredClone(appended);
  }

  /** Each append of the session whose key starts with `keyPrefix`, with its key, oldest first. */
  appendedUnder(session: string, keyPrefix: string): Array<Appended & { key: string }> {
    const appends = [...(this.#sessions.get(session)?.appends ?? [])];
    return appends
      .filter(([key]) => key.startsWith(keyPrefix))
      .map(([key, appended]) => ({ key, ...structuredClone(appended) }));
  }

  async read(session: string, options: { afterSeq?: number } = {}): Promise<StoredEvent[]> {
    const afterSeq = options.afterSeq ?? 0;
    const state = this.#sessions.get(session);
    const origin = state?.origin;
    // Seqs have no gaps (C2): the own events after `afterSeq` start at this index.
    const own = (state?.events ?? []).slice(Math.max(0, afterSeq - (origin?.seq ?? 0)));
    if (origin === undefined || afterSeq >= origin.seq) return own;
    const shared = (await this.read(origin.session, { afterSeq }))
      .filter((stored) => stored.seq <= origin.seq)
      .map((stored) => Object.freeze({ ...stored, session }));
    return [...shared, ...own];
  }

  async acquireTurn(session: string, turn: string, options: LeaseOptions = {}): Promise<LeaseTaken> {
    const state = this.#session(session);
    const now = this.#clock.now();
    const held = state.lease;
    if (held !== undefined && held.turn !== turn && leaseEnd(held) >= now && !options.takeOver)
      throw new SessionBusyError(session, held.turn, turn, leaseEnd(held));
    // Without a length, the session keeps the one its holder chose (StartTurn after submitTurn).
    const leaseMs = options.leaseMs ?? held?.leaseMs ?? DEFAULT_LEASE_MS;
    const hold = held?.turn === turn ? held.holdUntil : undefined;
    state.lease = { turn, leaseMs, until: now + leaseMs, ...(hold === undefined ? {} : { holdUntil: hold }) };
    return held !== undefined && held.turn !== turn ? { previous: held.turn } : {};
  }

  async holder(session: string): Promise<SessionHolder | undefined> {
    const state = this.#sessions.get(session);
    const lease = state?.lease;
    if (lease === undefined) return undefined;
    return {
      turn: lease.turn,
      leaseUntil: leaseEnd(lease),
      cancelRequested: state?.cancelTurn === lease.turn,
    };
  }

  async requestCancel(session: string, turn: string): Promise<boolean> {
    const state = this.#sessions.get(session);
    if (state?.lease?.turn !== turn) return false;
    state.cancelTurn = turn;
    return true;
  }

  async fork(session: string, origin: ForkOrigin, options: ForkOptions = {}): Promise<void> {
    const state = this.#sessions.get(session);
    if (state === undefined) {
      const { key } = options;
      this.#sessions.set(session, {
        events: [],
        appends: new Map(),
        origin: { ...origin },
        ...(key === undefined ? {} : { forkKey: key }),
      });
      return;
    }
    if (!isForkRetry(state, origin, options.key)) throw new SessionExistsError(session);
  }

  async origin(session: string): Promise<ForkOrigin | undefined> {
    const origin = this.#sessions.get(session)?.origin;
    return origin && { ...origin };
  }

  /** `cancelRequested`, when the append asked whether its turn was asked to stop. */
  #cancelReport(state: SessionState, { turn, reportCancel }: AppendRequest): { cancelRequested?: boolean } {
    return reportCancel ? { cancelRequested: state.cancelTurn === turn && state.lease?.turn === turn } : {};
  }

  #session(session: string): SessionState {
    let state = this.#sessions.get(session);
    if (state === undefined) {
      state = { events: [], appends: new Map() };
      this.#sessions.set(session, state);
    }
    return state;
  }
}

/**
 * Whether forking `state`'s session from `origin` again is a retry of the fork that made it: the
 * same origin, and the fork untouched since (no events of its own, no turn holding it) or made with
 * the same `key`.
 */
function isForkRetry(state: SessionState, origin: ForkOrigin, key: string | undefined): boolean {
  const same = state.origin?.session === origin.session && state.origin.seq === origin.seq;
  const untouched = state.events.length === 0 && state.lease === undefined;
  return same && (untouched || (key !== undefined && state.forkKey === key));
}

/** Renews a lease on an append, and sets or ends its hold when the append says so. */
function renew(lease: Lease, now: number, holdUntil: number | undefined): void {
  lease.until = now + lease.leaseMs;
  if (holdUntil === 0) delete lease.holdUntil;
  else if (holdUntil !== undefined) lease.holdUntil = holdUntil;
}
