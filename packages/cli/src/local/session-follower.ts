import type { StoredEvent } from '@agentstep/protocol';
import { metricEvents } from '@agentstep/runtime';
import type { SessionItem, ViewSource } from './run-view.js';

/** Reads the session's new events and metrics, one read at a time, in order. */
export class SessionFollower {
  readonly #source: ViewSource;
  #seq: number;
  #metrics: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(source: ViewSource) {
    this.#source = source;
    this.#seq = source.afterSeq;
    this.#metrics = source.afterMetrics;
  }

  /** Runs `show` once every read asked for so far has been shown, keeping output in order. */
  after(show: () => void): void {
    this.#queue = this.#queue.then(show);
  }

  /**
   * Hands each new item to `show`: the log's events, then the metrics; nothing is shown twice.
   * With `stopAt`, reading stops before the first event it matches (shown by a later call), and
   * metrics wait for a later call too.
   */
  follow(show: (item: SessionItem) => void, stopAt?: (stored: StoredEvent) => boolean): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      const { log, usage, session } = this.#source;
      for (const stored of await log.read(session, { afterSeq: this.#seq })) {
        if (stopAt?.(stored)) return;
        this.#seq = stored.seq;
        show(stored);
      }
      if (stopAt) return;
      const metrics = metricEvents(await usage.list(session));
      for (const metric of metrics.slice(this.#metrics)) show(metric);
      this.#metrics = metrics.length;
    });
    return this.#queue;
  }
}
