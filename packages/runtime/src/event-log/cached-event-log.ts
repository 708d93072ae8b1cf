import { deepFreeze, type StoredEvent } from '@agentstep/protocol';
import type {
  Appended,
  AppendRequest,
  AppendResult,
  EventLog,
  ForkOptions,
  ForkOrigin,
  LeaseOptions,
  LeaseTaken,
  LogSnapshot,
  SessionHolder,
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

/** One session's cached prefix: its events from seq 1 without a gap, and what they weigh. */
interface CachedPrefix {
  events: StoredEvent[];
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
 * prefix stays true forever, whoever appends after it. Only a gap-free prefix from seq 1 is kept.
 * Appends go through, with the next seq as a hint when the caller gives none. What a key's first
 * append left (`appended`) is remembered too, once appended or read. Cached events are frozen:
 * callers share them and cannot alter them.
 */
export class CachedEventLog implements EventLog {
  readonly #inner: EventLog;
  readonly #maxChars: number;
  /** Least recently read first (a Map keeps insertion order). */
  readonly #sessions = new Map<string, CachedPrefix>();
  #chars = 0;

  constructor(inner: EventLog, options: CachedEventLogOptions = {}) {
    this.#inner = inner;
    this.#maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  }

  async append(request: AppendRequest): Promise<AppendResult> {
    const prefix = this.#sessions.get(request.session);
    const expectedSeq = request.expectedSeq ?? prefix?.nextSeq;
    const result = await this.#inner.append(
      expectedSeq === undefined ? request : { ...request, expectedSeq },
    );
    if (prefix === undefined || result.replayed) return result;
    prefix.nextSeq = result.firstSeq + result.count;
    const { firstSeq, count } = result;
    prefix.appended.set(request.key, { firstSeq, count, ...(request.note ? { note: request.note } : {}) });
    // Right after what is cached, the appended events continue the prefix as a read would give them.
    if (result.firstSeq === prefix.events.length + 1) {
      const appended = request.events.map((event, index) =>
        asRead(toStoredEvent(request.session, result.firstSeq + index, event)),
      );
      this.#extend(request.session, prefix, appended);
    }
    return result;
  }

  heldThrough(session: string, seq: number): StoredEvent[] | undefined {
    const events = this.#sessions.get(session)?.events;
    return events !== undefined && events.length >= seq ? events.slice(0, seq) : undefined;
  }

  async read(session: string, options: { afterSeq?: number } = {}): Promise<StoredEvent[]> {
    const read = await this.#throughCache(session, options.afterSeq ?? 0, async (afterSeq) => ({
      events: await this.#inner.read(session, { afterSeq }),
    }));
    return read.events;
  }

  snapshot(session: string, options: { afterSeq?: number } = {}): Promise<LogSnapshot> {
    return this.#throughCache(session, options.afterSeq ?? 0, (afterSeq) =>
      this.#inner.snapshot(session, { afterSeq }),
    );
  }

  /**
   * A read of the session's events after `afterSeq` (with what else `readAfter` brings): the
   * cached prefix, then what `readAfter` finds after it, which extends the prefix.
   */
  async #throughCache<T extends { events: StoredEvent[] }>(
    session: string,
    afterSeq: number,
    readAfter: (afterSeq: number) => Promise<T>,
  ): Promise<T> {
    const prefix = this.#sessions.get(session) ?? { events: [], chars: 0, nextSeq: 1, appended: new Map() };
    const cachedSeq = prefix.events.length;
    // Past what is cached, a read would leave a gap: it goes to the log and is not kept.
    if (afterSeq > cachedSeq) return readAfter(afterSeq);
    const fresh = await readAfter(cachedSeq);
    this.#extend(session, prefix, fresh.events);
    const events = [
      ...prefix.events.slice(afterSeq),
      ...fresh.events.slice(prefix.events.length - cachedSeq),
    ];
    return { ...fresh, events };
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

  /** Adds the events that continue the prefix without a gap; marks the session read most recently. */
  #extend(session: string, prefix: CachedPrefix, fresh: readonly StoredEvent[]): void {
    this.#sessions.delete(session);
    for (const stored of fresh) {
      if (stored.seq !== prefix.events.length + 1) break;
      prefix.events.push(deepFreeze(stored));
      const chars = (stored.event.content?.length ?? 0) + EVENT_OVERHEAD_CHARS;
      prefix.chars += chars;
      this.#chars += chars;
    }
    prefix.nextSeq = Math.max(prefix.nextSeq, prefix.events.length + 1);
    this.#sessions.set(session, prefix);
    this.#evict();
  }

  /** Forgets the sessions read least recently until the cache is within its bound. */
  #evict(): void {
    for (const [session, prefix] of this.#sessions) {
      if (this.#chars <= this.#maxChars) return;
      this.#sessions.delete(session);
      this.#chars -= prefix.chars;
    }
  }
}

/** An event as a read from the store gives it: its JSON, without the fields JSON leaves out. */
function asRead(stored: StoredEvent): StoredEvent {
  return JSON.parse(JSON.stringify(stored)) as StoredEvent;
}
