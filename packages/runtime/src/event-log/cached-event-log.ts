import { deepFreeze, type StoredEvent } from '@agentstep/protocol';
import type { ContextStart } from './context-start.js';
import type {
  Appended,
  AppendRequest,
  AppendResult,
  EventLog,
  ForkOptions,
  ForkOrigin,
  HeldLog,
  LeaseOptions,
  LeaseTaken,
  LogSnapshot,
  SessionHolder,
  SnapshotOptions,
} from './event-log.js';
import { toStoredEvent } from './to-stored-event.js';

/** Options of {@link CachedEventLog}. */
export interface CachedEventLogOptions {
  /**
   * How much event content the cache holds, in characters, before it forgets the sessions read
   * least recently. @default 16 Mi characters (about 32 MiB)
   */
  maxChars?: number;
}

/**
 * One session's cached run: its events from seq `first` to the last this process knows, without a
 * gap, and what they weigh. `first` is 1, or the context start a `fromContext` read began at.
 */
interface CachedRun {
  first: number;
  events: StoredEvent[];
  /** The session's context start, once a `fromContext` read or a compaction's append told it. */
  start?: ContextStart;
  chars: number;
  /** Where the session's next append should land, as far as this process knows. */
  nextSeq: number;
  /** What appends left, by key, as this process made or read them: a key's first append never changes. */
  appended: Map<string, Appended>;
}

const DEFAULT_MAX_CHARS = 16 * 1024 * 1024;
/** What an event weighs besides its content: keys, seq, timestamp, batch. */
const EVENT_OVERHEAD_CHARS = 200;

/**
 * An {@link EventLog} that remembers each session's events once read and afterwards asks the log
 * underneath only for what came after them, so a model step reads what is new rather than the
 * whole session. Safe because stored events never change and seqs have no gaps (C2): a cached
 * run stays true forever, whoever appends after it. Only a gap-free run to the log's end is kept,
 * from seq 1 or, after a cold `fromContext` snapshot, from the context's start (decision 0039): it
 * serves the model steps' snapshots, and reads from its first seq on.
 * Appends go through, with the next seq as a hint when the caller gives none. What a key's first
 * append left (`appended`) is remembered too, once appended or read. Cached events are frozen:
 * callers share them and cannot alter them.
 */
export class CachedEventLog implements EventLog {
  readonly #inner: EventLog;
  readonly #maxChars: number;
  /** Least recently read first (a Map keeps insertion order). */
  readonly #sessions = new Map<string, CachedRun>();
  #chars = 0;

  constructor(inner: EventLog, options: CachedEventLogOptions = {}) {
    this.#inner = inner;
    this.#maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  }

  async append(request: AppendRequest): Promise<AppendResult> {
    const run = this.#sessions.get(request.session);
    const expectedSeq = request.expectedSeq ?? run?.nextSeq;
    const result = await this.#inner.append(
      expectedSeq === undefined ? request : { ...request, expectedSeq },
    );
    if (run === undefined || result.replayed) return result;
    run.nextSeq = result.firstSeq + result.count;
    const { firstSeq, count } = result;
    run.appended.set(request.key, { firstSeq, count, ...(request.note ? { note: request.note } : {}) });
    if (request.contextStart !== undefined) run.start = deepFreeze(structuredClone(request.contextStart));
    // Right after what is cached, the appended events continue the run as a read would give them.
    if (result.firstSeq === lastSeq(run) + 1) {
      const appended = request.events.map((event, index) =>
        asRead(toStoredEvent(request.session, result.firstSeq + index, event)),
      );
      this.#extend(request.session, run, appended);
    }
    return result;
  }

  heldThrough(session: string, seq: number): HeldLog | undefined {
    const run = this.#sessions.get(session);
    if (run === undefined || lastSeq(run) < seq) return undefined;
    return { events: run.events.slice(0, seq - run.first + 1), ...(run.start ? { start: run.start } : {}) };
  }

  async read(session: string, options: { afterSeq?: number } = {}): Promise<StoredEvent[]> {
    const read = await this.#throughCache(session, options.afterSeq ?? 0, false, async (afterSeq) => ({
      events: await this.#inner.read(session, { afterSeq }),
    }));
    return read.events;
  }

  snapshot(session: string, options: SnapshotOptions = {}): Promise<LogSnapshot> {
    const fromContext = options.fromContext === true;
    return this.#throughCache(session, options.afterSeq ?? 0, fromContext, (afterSeq, cold) =>
      this.#inner.snapshot(session, { afterSeq, ...(cold ? { fromContext } : {}) }),
    );
  }

  /**
   * A read of the session's events after `afterSeq` (from the context's start at the latest, when
   * `fromContext`), with what else `readAfter` brings: the cached run, then what `readAfter` finds
   * after it, which extends the run. With no run cached, a read from the start (seq 1, or the
   * context's) begins one; `readAfter` is then told the read is cold.
   */
  async #throughCache<T extends { events: StoredEvent[]; start?: ContextStart }>(
    session: string,
    afterSeq: number,
    fromContext: boolean,
    readAfter: (afterSeq: number, cold: boolean) => Promise<T>,
  ): Promise<T> {
    const run = this.#sessions.get(session);
    if (run === undefined) {
      const fresh = await readAfter(afterSeq, true);
      if (afterSeq === 0) {
        const first = Math.max(1, fresh.start?.from ?? 1);
        const started: CachedRun = { first, events: [], chars: 0, nextSeq: first, appended: new Map() };
        if (fresh.start !== undefined) started.start = fresh.start;
        this.#extend(session, started, fresh.events);
      }
      return fresh;
    }
    const cachedSeq = lastSeq(run);
    // Before the run, or past it (a gap), a read goes to the log and is not kept.
    if ((!fromContext && afterSeq < run.first - 1) || afterSeq > cachedSeq) return readAfter(afterSeq, false);
    const fresh = await readAfter(cachedSeq, false);
    this.#extend(session, run, fresh.events);
    const events = [
      ...run.events.slice(Math.max(0, afterSeq - run.first + 1)),
      ...fresh.events.slice(lastSeq(run) - cachedSeq),
    ];
    return { ...fresh, events, ...(fromContext && run.start ? { start: run.start } : {}) };
  }

  async appended(session: string, key: string): Promise<Appended | undefined> {
    const known = this.#sessions.get(session)?.appended.get(key);
    if (known !== undefined) return known;
    const found = await this.#inner.appended(session, key);
    if (found !== undefined) this.#sessions.get(session)?.appended.set(key, found);
    return found;
  }

  acquireTurn(session: string, turn: string, options?: LeaseOptions): Promise<LeaseTaken> {
    return this.#inner.acquireTurn(session, turn, options);
  }

  holder(session: string): Promise<SessionHolder | undefined> {
    return this.#inner.holder(session);
  }

  requestCancel(session: string, turn: string): Promise<boolean> {
    return this.#inner.requestCancel(session, turn);
  }

  fork(session: string, origin: ForkOrigin, options?: ForkOptions): Promise<void> {
    return this.#inner.fork(session, origin, options);
  }

  origin(session: string): Promise<ForkOrigin | undefined> {
    return this.#inner.origin(session);
  }

  /** Adds the events that continue the run without a gap; marks the session read most recently. */
  #extend(session: string, run: CachedRun, fresh: readonly StoredEvent[]): void {
    this.#sessions.delete(session);
    for (const stored of fresh) {
      if (stored.seq !== lastSeq(run) + 1) break;
      run.events.push(deepFreeze(stored));
      const chars = (stored.event.content?.length ?? 0) + EVENT_OVERHEAD_CHARS;
      run.chars += chars;
      this.#chars += chars;
    }
    run.nextSeq = Math.max(run.nextSeq, lastSeq(run) + 1);
    this.#sessions.set(session, run);
    this.#evict();
  }

  /** Forgets the sessions read least recently until the cache is within its bound. */
  #evict(): void {
    for (const [session, run] of this.#sessions) {
      if (this.#chars <= this.#maxChars) return;
      this.#sessions.delete(session);
      this.#chars -= run.chars;
    }
  }
}

/** The last seq a run holds (`first - 1` while it holds none). */
function lastSeq(run: CachedRun): number {
  return run.first + run.events.length - 1;
}

/** An event as a read from the store gives it: its JSON, without the fields JSON leaves out. */
function asRead(stored: StoredEvent): StoredEvent {
  return JSON.parse(JSON.stringify(stored)) as StoredEvent;
}
