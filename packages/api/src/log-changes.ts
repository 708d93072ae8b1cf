import { type AppendRequest, type AppendResult, type EventLog, eventLogWith } from '@agentstep/runtime';

/** Tells streams that a session's log grew, so they read it at once instead of at their next poll. */
export class LogChanges {
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Wakes everything waiting on `session`. */
  notify(session: string): void {
    const waiters = this.#waiters.get(session);
    this.#waiters.delete(session);
    for (const wake of waiters ?? []) wake();
  }

  /** Settles at the next change of `session`, or after `ms`, whichever comes first. */
  wait(session: string, ms: number): Promise<void> {
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

  /** `log`, telling these changes about every append it makes. */
  watch(log: EventLog): EventLog {
    const append = async (request: AppendRequest): Promise<AppendResult> => {
      const result = await log.append(request);
      this.notify(request.session);
      return result;
    };
    return eventLogWith(log, { append });
  }
}
