import {
  type AppendRequest,
  type AppendResult,
  type EventLog,
  eventLogWith,
  type TurnQueue,
} from '@agentstep/runtime';

/**
 * What a session's changes in this process were, as of one version: how many of them were appends
 * through the watched log (a replay counts as none), how many of those carried a note (the usage
 * ledger is made of notes), and the last seq they appended.
 */
export interface LogGrowth {
  version: number;
  appends: number;
  noted: number;
  lastSeq: number;
}

/** Tells streams that a session's log grew, so they read it at once instead of at their next poll. */
export class LogChanges {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #versions = new Map<string, number>();
  readonly #appends = new Map<string, Omit<LogGrowth, 'version'>>();

  /** How many times `session`'s log has grown: read it before reading the log, wait with it after. */
  version(session: string): number {
    return this.#versions.get(session) ?? 0;
  }

  /**
   * `session`'s version with what its appends through the watched log were: when two growths
   * differ in `version` by as much as in `appends`, every change between them was such an append,
   * ending at `lastSeq`.
   */
  growth(session: string): LogGrowth {
    return { version: this.version(session), ...(this.#appends.get(session) ?? NO_APPENDS) };
  }

  /** Wakes everything waiting on `session`. */
  notify(session: string): void {
    this.#versions.set(session, this.version(session) + 1);
    const waiters = this.#waiters.get(session);
    this.#waiters.delete(session);
    for (const wake of waiters ?? []) wake();
  }

  /**
   * Settles at the next change of `session`, or after `ms`, whichever comes first; at once when it
   * changed since `seen` (a version read before the caller's last read), so no change is missed.
   */
  wait(session: string, ms: number, seen = this.version(session)): Promise<void> {
    if (this.version(session) !== seen) return Promise.resolve();
    return new Promise((settle) => {
      const waiters = this.#waiters.get(session) ?? new Set();
      this.#waiters.set(session, waiters);
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        settle();
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
    });
  }

  /** `queue`, telling these changes about every message it adds or withdraws (a stream shows both). */
  watchQueue(queue: TurnQueue): TurnQueue {
    return {
      enqueue: async (session, message, place) => {
        const position = await queue.enqueue(session, message, place);
        this.notify(session);
        return position;
      },
      list: (session) => queue.list(session),
      withdraw: async (session, turn) => {
        const withdrawn = await queue.withdraw(session, turn);
        this.notify(session);
        return withdrawn;
      },
      claim: (session, turn) => queue.claim(session, turn),
      remove: (session, turn) => queue.remove(session, turn),
      sessions: () => queue.sessions(),
    };
  }

  /** `log`, telling these changes about every append it makes. */
  watch(log: EventLog): EventLog {
    const append = async (request: AppendRequest): Promise<AppendResult> => {
      const result = await log.append(request);
      if (!result.replayed) this.#count(request, result);
      this.notify(request.session);
      return result;
    };
    return eventLogWith(log, { append });
  }

  #count({ session, note }: AppendRequest, { firstSeq, count }: AppendResult): void {
    const { appends, noted, lastSeq } = this.#appends.get(session) ?? NO_APPENDS;
    this.#appends.set(session, {
      appends: appends + 1,
      noted: noted + (note === undefined ? 0 : 1),
      lastSeq: Math.max(lastSeq, firstSeq + count - 1),
    });
  }
}

const NO_APPENDS = { appends: 0, noted: 0, lastSeq: 0 };
