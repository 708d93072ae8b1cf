import { createParser, type ParsedEvent, type StoredEvent, type StreamingParser } from '@agentstep/protocol';
import { metricEvents } from '@agentstep/runtime';
import type { SessionItem, ViewSource } from './run-view.js';

/** How a view shows a session: logged items, the start of a streamed step, and its streamed events. */
export interface SessionDisplay {
  show(item: SessionItem): void;
  stepStarted?(): void;
  streamed(events: readonly ParsedEvent[]): void;
}

/** An event a model step writes (rather than the results or the user message logged before it). */
function isStepEvent(stored: StoredEvent): boolean {
  return stored.event.type !== 'result' && stored.event.type !== 'user';
}

/**
 * Reads the session's new events and metrics, one read at a time, and what its model steps stream,
 * and hands them on in order.
 */
export class SessionFollower {
  readonly #source: ViewSource;
  #seq: number;
  #metrics: number;
  #queue: Promise<void> = Promise.resolve();
  /** The token-mode parser of the step that is streaming. */
  #tokens: { step: number; parser: StreamingParser } | undefined;

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
   * Parses one streamed chunk of model step `step` in token mode. A new step first shows what was
   * logged before it (the last batch's results; its own events come when it is logged), then
   * `stepStarted`; the chunk's events follow, in order with everything else.
   */
  stream(step: number, chunk: string, display: SessionDisplay): void {
    if (this.#tokens?.step !== step) {
      void this.follow((item) => display.show(item), isStepEvent);
      this.#tokens = { step, parser: createParser({ mode: 'token' }) };
      if (display.stepStarted) this.after(() => display.stepStarted?.());
    }
    const events = this.#tokens.parser.push(chunk);
    this.after(() => display.streamed(events));
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
