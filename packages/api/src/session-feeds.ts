import type { StoredEvent } from '@agentstep/protocol';
import type { QueuedMessage, StepUsage, StoredOutcome } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import type { LogGrowth } from './log-changes.js';

/** How many frames a stream may fall behind its session's reader before it is cut (`SessionFeeds`' default). */
export const DEFAULT_FEED_LIMIT = 1000;
const DEFAULT_POLL_MS = 250;
/**
 * With `changes`, how many polls apart a reader reads when nothing it waits on is unnotified (no
 * outcomes wanted, no queued message): what changes is then appended or queued in this process and
 * wakes it, and the slower timer only catches writes from other processes (a CLI on the same store).
 */
const QUIET_POLLS = 4;

/** What a session's reader reads. */
export type FeedDeps = Pick<ApiDeps, 'log' | 'usage' | 'queue' | 'outcomes' | 'changes' | 'pollMs'>;

/** What a stream asks of its session's reader. */
export interface FeedNeeds {
  /** The last seq the stream holds: it is handed what is logged after it. */
  seq: number;
  /** The log's version (`LogChanges`) read before the stream read its backlog. */
  seen: number | undefined;
  /** Whether each read lists the session's queue. @default false */
  queue?: boolean;
  /** The batch whose stored outcomes each read lists (asked before each read), if any. @default none */
  outcomes?: () => { batch: string; count: number } | undefined;
  /**
   * The whole log as the stream read it (up to `seq`): a reader it starts keeps the log whole, for
   * the next streams of the session to start from ({@link SessionFeeds.current}). @default none
   */
  log?: readonly StoredEvent[];
}

/** A session's log and queue as its reader read them last, while nothing has changed since. */
export interface FeedSnapshot {
  /** The whole log, oldest first. */
  events: StoredEvent[];
  /** The queue, listed before the log was read. */
  queued: readonly QueuedMessage[];
  /** The log's version the snapshot is of. */
  seen: number;
}

/** A session stream's first read: its queue, then (after the log's version `seen`) its whole log and its ledger. */
export interface FeedOpening {
  events: StoredEvent[];
  queued: readonly QueuedMessage[];
  seen: number | undefined;
  /** For a fork, the last seq it shares with its parent. */
  forkedAt?: number;
  /** The usage ledger, read after the log. */
  entries: readonly StepUsage[];
}

/** What a stream takes from its session's reader: what was read since it last took, as of the last read. */
export interface FeedTake {
  /** The events logged after the stream's last seq, oldest first (they count as taken). */
  events: StoredEvent[];
  /** The usage ledger as read after the log last grew; `undefined` before that. */
  entries: readonly StepUsage[] | undefined;
  /** The session's queue as last listed; `undefined` before the first read. */
  queued: readonly QueuedMessage[] | undefined;
  /** The outcomes listed by the last read, by batch. */
  outcomes: ReadonlyMap<string, ReadonlyArray<StoredOutcome | undefined>>;
}

/** One stream's place at its session's reader. */
export interface FeedSeat {
  /** Settles at the next read that found something the stream has not taken, once the stream is cut or the read failed, or after `ms`. */
  next(ms: number): Promise<void>;
  /**
   * What was read since the last take; `undefined` once the stream fell more than the limit behind
   * (it is cut: it ends as a stream whose time is up does, for its client to resume). Throws what a read threw.
   */
  take(): Promise<FeedTake | undefined>;
  /**
   * The usage ledger as the reader read it after a read of the log that covered the stream's seq
   * (what the stream would read itself now); `undefined` when it has none such.
   */
  ledger(): readonly StepUsage[] | undefined;
  /** Gives up the place; the last stream of a session to leave stops its reader. */
  leave(): void;
}

/**
 * One reader per session in this process, shared by every stream that follows the session: the
 * first stream starts it, the last one to leave stops it. Each change of the log (woken by
 * `changes`, else every `pollMs`; with `changes`, every fourth poll while nothing unnotified is awaited) is read once (the queue and the open batch's outcomes before the
 * log, the ledger after it when it grew; what this process appended, from the log's cache) and
 * handed to each stream as it takes it; a stream more
 * than `limit` events behind is cut rather than buffered for.
 */
export class SessionFeeds {
  readonly #deps: FeedDeps;
  readonly #feeds = new Map<string, SessionFeed>();
  readonly #openings = new Map<string, { seen: number; read: Promise<FeedOpening> }>();
  /** How many frames a stream may fall behind before it is cut. */
  readonly limit: number;

  constructor(deps: FeedDeps, { limit = DEFAULT_FEED_LIMIT }: { limit?: number } = {}) {
    this.#deps = deps;
    this.limit = limit;
  }

  /** A place at the reader of the log stored as `session`, started if none runs. */
  join(session: string, needs: FeedNeeds): FeedSeat {
    let feed = this.#feeds.get(session);
    if (feed === undefined) {
      const started = new SessionFeed(this.#deps, session, needs, this.limit, () => {
        if (this.#feeds.get(session) === started) this.#feeds.delete(session);
      });
      this.#feeds.set(session, started);
      feed = started;
    }
    return feed.join(needs);
  }

  /**
   * What a new stream of `session` would read (its whole log, its queue before it), from its
   * running reader, when that reader keeps the log whole and nothing was appended or queued in this
   * process since its last read (`changes` says so); else `undefined`, and the stream reads them.
   */
  current(session: string): FeedSnapshot | undefined {
    return this.#feeds.get(session)?.current();
  }

  /**
   * `read`'s answer for the streams of `session` that open while it runs and nothing was appended
   * or queued in this process since it began (`changes` says so): streams that open together read
   * once. Without `changes`, `read()`.
   */
  opening(session: string, read: () => Promise<FeedOpening>): Promise<FeedOpening> {
    const seen = this.#deps.changes?.version(session);
    if (seen === undefined) return read();
    const running = this.#openings.get(session);
    if (running?.seen === seen) return running.read;
    const started = { seen, read: read() };
    this.#openings.set(session, started);
    const forget = () => {
      if (this.#openings.get(session) === started) this.#openings.delete(session);
    };
    started.read.then(forget, forget);
    return started.read;
  }

  /** The sessions whose reader runs. */
  get sessions(): string[] {
    return [...this.#feeds.keys()];
  }
}

const defaults = new WeakMap<object, SessionFeeds>();

/** `deps.feeds`, else one set of readers for these deps (made at the first stream). */
export function sessionFeedsOf(deps: ApiDeps): SessionFeeds {
  if (deps.feeds !== undefined) return deps.feeds;
  let feeds = defaults.get(deps);
  if (feeds === undefined) {
    feeds = new SessionFeeds(deps);
    defaults.set(deps, feeds);
  }
  return feeds;
}

/** A stream's place: how far it took, and how it is woken. */
interface Seat {
  needs: FeedNeeds;
  /** The last seq taken. */
  cursor: number;
  /** The read last taken. */
  round: number;
  cut: boolean;
  wake: (() => void) | undefined;
}

/** What one read found: the queue (when a seat follows it), the outcomes listed by batch, the events after the last seq read. */
interface Found {
  queued: readonly QueuedMessage[] | undefined;
  listed: ReadonlyMap<string, ReadonlyArray<StoredOutcome | undefined>>;
  fresh: StoredEvent[];
}

/** The reader of one session and its streams' places. */
class SessionFeed {
  readonly #deps: FeedDeps;
  readonly #session: string;
  readonly #limit: number;
  readonly #onStop: () => void;
  readonly #seats = new Set<Seat>();
  /** Events read with seq past `#floor`, oldest first: what some stream may still take. */
  #events: StoredEvent[] = [];
  #floor: number;
  /** The last seq read. */
  #seq: number;
  #seen: number | undefined;
  /** Counts reads that found something new. */
  #round = 0;
  #entries: readonly StepUsage[] | undefined;
  #queued: readonly QueuedMessage[] | undefined;
  #outcomes: ReadonlyMap<string, ReadonlyArray<StoredOutcome | undefined>> = new Map();
  /** What the last read found of the queue and outcomes, to tell a change. */
  #lastFound = '';
  #failure: { error: unknown } | undefined;
  #interrupt: (() => void) | undefined;
  /** Whether the last read found what no change wakes the reader for: outcomes wanted, or a queued message. */
  #unnotified = true;
  /** The whole log up to `#seq`, when the first stream read it whole. */
  readonly #log: StoredEvent[] | undefined;
  /** The session's growth (`changes`) as of the last read. */
  #growth: LogGrowth | undefined;
  /** How many noted appends the session had when the ledger was last read. */
  #ledgerNoted: number | undefined;

  constructor(deps: FeedDeps, session: string, first: FeedNeeds, limit: number, onStop: () => void) {
    this.#deps = deps;
    this.#session = session;
    this.#limit = limit;
    this.#onStop = onStop;
    this.#seq = first.seq;
    this.#floor = first.seq;
    this.#seen = first.seen;
    // Nothing changed since the first stream read: appends from here on are held by the log.
    const growth = deps.changes?.growth(session);
    if (growth?.version === first.seen) this.#growth = growth;
    const whole = first.log !== undefined && (first.log.at(-1)?.seq ?? 0) === first.seq;
    this.#log = whole ? [...(first.log ?? [])] : undefined;
    // Started once the first seat is taken (join follows the constructor at once).
    queueMicrotask(() => void this.#run());
  }

  join(needs: FeedNeeds): FeedSeat {
    const seat: Seat = { needs, cursor: needs.seq, round: this.#round, cut: false, wake: undefined };
    this.#seats.add(seat);
    return {
      next: (ms) => this.#next(seat, ms),
      take: () => this.#take(seat),
      ledger: () => (this.#seq >= seat.cursor ? this.#entries : undefined),
      leave: () => {
        this.#seats.delete(seat);
        if (this.#seats.size === 0) this.#interrupt?.();
      },
    };
  }

  current(): FeedSnapshot | undefined {
    const seen = this.#deps.changes?.version(this.#session);
    if (this.#log === undefined || this.#queued === undefined || this.#failure !== undefined)
      return undefined;
    if (seen === undefined || seen !== this.#seen) return undefined;
    return { events: [...this.#log], queued: this.#queued, seen };
  }

  #next(seat: Seat, ms: number): Promise<void> {
    const behind = this.#round > seat.round || seat.cursor < this.#seq;
    if (seat.cut || this.#failure !== undefined || behind) return Promise.resolve();
    return new Promise((settle) => {
      const timer = setTimeout(wake, ms);
      function wake() {
        clearTimeout(timer);
        seat.wake = undefined;
        settle();
      }
      seat.wake = wake;
    });
  }

  async #take(seat: Seat): Promise<FeedTake | undefined> {
    if (this.#failure !== undefined) throw this.#failure.error;
    if (seat.cut) return undefined;
    seat.round = this.#round;
    const found = { queued: this.#queued, outcomes: this.#outcomes };
    // A stream that joined behind what the reader keeps reads its gap itself, once.
    if (seat.cursor < this.#floor) {
      const events = await this.#deps.log.read(this.#session, { afterSeq: seat.cursor });
      const entries = await this.#deps.usage.list(this.#session);
      seat.cursor = events.at(-1)?.seq ?? seat.cursor;
      return { events, entries, ...found };
    }
    const first = this.#events.findIndex((stored) => stored.seq > seat.cursor);
    const events = first === -1 ? [] : this.#events.slice(first);
    seat.cursor = events.at(-1)?.seq ?? seat.cursor;
    return { events, entries: this.#entries, ...found };
  }

  async #run(): Promise<void> {
    try {
      while (this.#seats.size > 0) {
        await this.#quiet();
        if (this.#seats.size === 0) break;
        await this.#read();
      }
    } catch (error) {
      this.#failure = { error };
      for (const seat of this.#seats) seat.wake?.();
      this.#seats.clear();
    } finally {
      this.#onStop();
    }
  }

  /** Waits for the log to change, `pollMs` (the queue and outcomes tell no one), or the last seat to leave. */
  #quiet(): Promise<void> {
    const { changes } = this.#deps;
    const pollMs = (this.#deps.pollMs ?? DEFAULT_POLL_MS) * (changes && !this.#unnotified ? QUIET_POLLS : 1);
    return new Promise((settle) => {
      const done = () => {
        clearTimeout(timer);
        this.#interrupt = undefined;
        settle();
      };
      const timer = setTimeout(done, pollMs);
      this.#interrupt = done;
      void changes?.wait(this.#session, pollMs, this.#seen).then(done);
    });
  }

  /**
   * One read of everything the seats need: what this process appended, held by the log, when that
   * is all that changed since the last read; else the stores, in the order each stream read them alone.
   */
  async #read(): Promise<void> {
    const seats = [...this.#seats];
    const growth = this.#deps.changes?.growth(this.#session);
    const held = growth && this.#heldAppends(seats, growth);
    const { queued, listed, fresh } = held ?? (await this.#readStores(seats));
    this.#seen = growth?.version;
    this.#growth = growth;
    // The ledger is made of appends' notes: only an append with a note changes it.
    if (fresh.length > 0 && (held === undefined || growth?.noted !== this.#ledgerNoted)) {
      this.#entries = await this.#deps.usage.list(this.#session);
      this.#ledgerNoted = growth?.noted;
    }
    this.#queued = queued;
    this.#outcomes = listed;
    this.#unnotified = listed.size > 0 || (queued?.length ?? 0) > 0;
    const found = JSON.stringify([queued, [...listed]]);
    if (fresh.length === 0 && found === this.#lastFound) return;
    this.#lastFound = found;
    this.#events.push(...fresh);
    this.#log?.push(...fresh);
    this.#seq = fresh.at(-1)?.seq ?? this.#seq;
    this.#round += 1;
    this.#keepWithinLimit();
    for (const seat of this.#seats) seat.wake?.();
  }

  /**
   * The events this process appended since the last read, as its log holds them (no read), when
   * appends through the watched log are all that changed (no queue change, no other write) and no
   * seat waits on what no append tells (the outcomes of a batch, a queue that holds a message).
   */
  #heldAppends(seats: readonly Seat[], growth: LogGrowth): Found | undefined {
    const last = this.#growth;
    if (last === undefined || growth.version === last.version) return undefined;
    if (growth.version - last.version !== growth.appends - last.appends) return undefined;
    const queueKnown = this.#queued?.length === 0 || !seats.some((seat) => seat.needs.queue);
    if (!queueKnown || seats.some((seat) => seat.needs.outcomes?.() !== undefined)) return undefined;
    const held = this.#deps.log.heldThrough?.(this.#session, growth.lastSeq)?.events;
    if (held === undefined || (held[0]?.seq ?? 1) > this.#seq + 1) return undefined;
    const fresh = held.slice(Math.max(0, this.#seq - (held[0]?.seq ?? 1) + 1));
    return { queued: this.#queued, listed: new Map(), fresh };
  }

  /** Reads the queue (when a seat follows it), the outcomes wanted, then the log after the last seq read. */
  async #readStores(seats: readonly Seat[]): Promise<Found> {
    const { log, queue, outcomes } = this.#deps;
    // The queue before the log: a queued turn that starts in between is in the log read after it.
    const queued = seats.some((seat) => seat.needs.queue) ? await queue.list(this.#session) : undefined;
    // Before the log: the outcome of a call that waited for approval follows its logged decision.
    const wanted = new Map<string, number>();
    for (const seat of seats) {
      const batch = seat.needs.outcomes?.();
      if (batch !== undefined) wanted.set(batch.batch, Math.max(wanted.get(batch.batch) ?? 0, batch.count));
    }
    const listed = new Map<string, ReadonlyArray<StoredOutcome | undefined>>();
    for (const [batch, count] of wanted) listed.set(batch, await outcomes.list(this.#session, batch, count));
    const fresh = await log.read(this.#session, { afterSeq: this.#seq });
    return { queued, listed, fresh };
  }

  /** Cuts each seat more than the limit behind, then drops what every remaining seat has taken. */
  #keepWithinLimit(): void {
    let floor = this.#seq;
    for (const seat of this.#seats) {
      const untaken = this.#events.findIndex((stored) => stored.seq > seat.cursor);
      if (untaken !== -1 && this.#events.length - untaken > this.#limit) {
        seat.cut = true;
        this.#seats.delete(seat);
        seat.wake?.();
      } else floor = Math.min(floor, seat.cursor);
    }
    this.#floor = Math.max(this.#floor, floor);
    const kept = this.#events.findIndex((stored) => stored.seq > this.#floor);
    this.#events = kept === -1 ? [] : this.#events.slice(kept);
  }
}
