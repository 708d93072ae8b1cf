import type { StoredEvent } from '@agentstep/protocol';
import type { LiveSteps, LiveText } from './live-steps.js';

/**
 * One stream's share of a session's live steps. It keeps only the pieces of steps it saw from
 * their first piece (a stream that joins or resumes mid-step gets that step's text from the log,
 * never half of it twice), hands each out once the stream has sent every event logged before its
 * step began, and says which stored events belong to a step whose text it streamed.
 */
export class LiveTail {
  readonly stop: () => void;
  readonly #queue: LiveText[] = [];
  /** The step whose pieces this stream keeps. */
  #followed: number | undefined;
  /**
   * The log's last seq as the last step this stream streamed began, the seq its own events are
   * expected from, and its batch once logged.
   */
  #streamed: { afterSeq: number; firstSeq: number; batch?: string } | undefined;
  #wake: (() => void) | undefined;
  readonly #limit: number;
  #overflowed = false;

  /** Keeps at most `limit` pieces not yet due: past it, it keeps none and is {@link overflowed}. */
  constructor(live: LiveSteps | undefined, session: string, limit = Number.POSITIVE_INFINITY) {
    this.stop = live?.subscribe(session, (text) => this.#keep(text)) ?? (() => {});
    this.#limit = limit;
  }

  /** Whether pieces came faster than the stream sent them, past the limit: the stream is to end. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Whether kept pieces wait for the log to catch up to their step. */
  get holding(): boolean {
    return this.#queue.length > 0;
  }

  /** The kept pieces due once the stream has sent the events up to `seq`, oldest first. */
  due(seq: number): LiveText[] {
    const due: LiveText[] = [];
    while (this.#queue[0] !== undefined && this.#queue[0].afterSeq <= seq) {
      const text = this.#queue.shift() as LiveText;
      if (this.#streamed?.afterSeq !== text.afterSeq)
        this.#streamed = { afterSeq: text.afterSeq, firstSeq: text.afterSeq + 1 };
      due.push(text);
    }
    return due;
  }

  /** Whether `stored` was written by a step whose text this stream sent as pieces. */
  streamed({ seq, batch, event }: StoredEvent): boolean {
    const streamed = this.#streamed;
    if (streamed === undefined) return false;
    // A compaction the step logged once its model had answered comes just before its own events.
    if (event.type === 'compacted' && seq === streamed.firstSeq) streamed.firstSeq += 1;
    if (batch === undefined) return false;
    // The step's own events come first after the seq it began at (its append expects that seq).
    if (seq === streamed.firstSeq) streamed.batch = batch;
    return streamed.batch === batch;
  }

  /** Settles once a piece is kept: at once when one waits already (for the log to catch up to its step). */
  arrival(): Promise<void> {
    if (this.#queue.length > 0) return Promise.resolve();
    return new Promise((settle) => {
      this.#wake = settle;
    });
  }

  #keep(text: LiveText): void {
    if (text.index === 0) this.#followed = text.step;
    if (text.step !== this.#followed) return;
    if (this.#overflowed) return;
    if (this.#queue.length >= this.#limit) {
      this.#overflowed = true;
      this.#queue.length = 0;
    } else this.#queue.push(text);
    this.#wake?.();
  }
}
