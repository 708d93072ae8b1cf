import {
  createParser,
  type ParsedEvent,
  type StoredEvent,
  type StreamingParser,
  type WireEventOf,
} from '@agentstep/protocol';
import type { EventLog } from '../event-log/event-log.js';
import { metricEvents } from '../usage/session-spend.js';
import type { UsageLedger } from '../usage/usage-ledger.js';

/** What a follower reads a session from: its log, and its usage ledger for `metric` events. */
export interface SessionSource {
  log: EventLog;
  usage: UsageLedger;
  session: string;
  /** Shown events are the ones after this seq… */
  afterSeq: number;
  /** …and the metrics after this many ledger entries. */
  afterMetrics: number;
}

/** A logged event, or a model step's metric (which has no seq: it is not part of the log, C1). */
export type SessionItem = StoredEvent | WireEventOf<'metric'>;

/** How a view shows a session: logged items, the start of a streamed step, and its streamed events. */
export interface SessionDisplay {
  show(item: SessionItem): void;
  stepStarted?(): void;
  streamed(events: readonly ParsedEvent[]): void;
}

/**
 * An event a model step writes (rather than the results, the user message or the compaction of the
 * context logged before it).
 */
function isStepEvent(stored: StoredEvent): boolean {
  return !['result', 'user', 'compacted'].includes(stored.event.type);
}

/**
 * Follows a session for a client: reads its new events and metrics, one read at a time, parses
 * what its model steps stream (from a `StepStream`), and hands everything on in order.
 */
export class SessionFollower {
  readonly #source: SessionSource;
  #seq: number;
  #metrics: number;
  #queue: Promise<void> = Promise.resolve();
  /** The token-mode parser of the step that is streaming. */
  #tokens: { step: number; parser: StreamingParser } | undefined;

  constructor(source: SessionSource) {
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
   * logged before it (the last batch's results, a compaction; its own events come when it is
   * logged), then `stepStarted`; the chunk's events follow, in order with everything else.
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
   * Hands each new item to `show`: the log's events, then the metrics (a turn's metrics always
   * come before its terminal record); nothing is shown twice. With `stopAt`, reading stops before
   * the first event it matches (shown by a later call), and metrics wait for a later call too.
   */
  follow(show: (item: SessionItem) => void, stopAt?: (stored: StoredEvent) => boolean): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      const { log, session } = this.#source;
      for (const stored of await log.read(session, { afterSeq: this.#seq })) {
        if (stopAt?.(stored)) return;
        if (stored.event.type === 'turn_end') await this.#showMetrics(show);
        this.#seq = stored.seq;
        show(stored);
      }
      if (!stopAt) await this.#showMetrics(show);
    });
    return this.#queue;
  }

  async #showMetrics(show: (item: SessionItem) => void): Promise<void> {
    const metrics = metricEvents(await this.#source.usage.list(this.#source.session));
    for (const metric of metrics.slice(this.#metrics)) show(metric);
    this.#metrics = metrics.length;
  }
}
