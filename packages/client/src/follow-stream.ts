import { AgentStepApiError, StreamDroppedError } from './errors.js';
import { streamFailure } from './read-api-error.js';
import { readFrames } from './read-frames.js';
import { type StreamItem, streamItem } from './stream-item.js';

const DEFAULT_RETRIES = 5;
const DEFAULT_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/** How to follow a session's stream. */
export interface StreamOptions {
  /** Yield the events after this `seq`. @default 0, from the session's first event */
  after?: number;
  /** Stops the stream: the iterator then throws the signal's reason. */
  signal?: AbortSignal;
  /** Reconnections that may fail in a row (drop without an event) before the stream gives up. @default 5 */
  retries?: number;
  /** The wait before reconnecting; it doubles with each drop in a row, up to 8 s. @default 500 ms */
  retryDelayMs?: number;
}

/** Opens one connection of a session's stream, resuming after `lastSeq` when given; throws on a refusal. */
export type OpenStream = (lastSeq: number | undefined, signal: AbortSignal) => Promise<Response>;

/**
 * A session's stream, whole across dropped connections: each drop before `done` reconnects after the
 * last `seq` received, so every logged event is yielded exactly once, then `done`; a stream that
 * ends with an `event: error` frame (the store was unavailable) is a drop too. A refusal (4xx)
 * or the caller's abort is thrown at once; {@link StreamDroppedError} once `retries` reconnections in
 * a row dropped without an event. Transient events (`metric`) sent while disconnected are not replayed.
 * A `204` answer (the resume point is at the end of the log and no turn runs) ends it without `done`.
 */
export async function* followStream(
  session: string,
  open: OpenStream,
  options: StreamOptions = {},
): AsyncGenerator<StreamItem, void, undefined> {
  let lastSeq = options.after;
  let dropped = 0;
  for (;;) {
    const connection = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, connection.signal]) : connection.signal;
    let heard = false;
    let delivered = false;
    let failure: unknown;
    try {
      const response = await open(lastSeq, signal);
      // Nothing after `lastSeq`, and no turn runs: the stream is over without a `done` to send.
      if (response.status === 204) return;
      if (response.body === null) throw new Error('the stream answered without a body');
      for await (const frame of readFrames(response.body, () => (heard = true))) {
        heard = true;
        if (frame.event === 'error') {
          // Counts as a connection that failed unless it delivered something first.
          heard = delivered;
          throw streamFailure(frame.data);
        }
        const item = streamItem(frame);
        if ('seq' in item) lastSeq = item.seq;
        yield item;
        delivered = true;
        if (item.type === 'done') return;
      }
    } catch (error) {
      if (options.signal?.aborted || (error instanceof AgentStepApiError && error.status < 500)) throw error;
      failure = error;
    } finally {
      connection.abort();
    }
    dropped = heard ? 1 : dropped + 1;
    if (dropped > (options.retries ?? DEFAULT_RETRIES))
      throw new StreamDroppedError(session, dropped, lastSeq, failure);
    const delay = (options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS) * 2 ** (dropped - 1);
    await pause(Math.min(delay, MAX_RETRY_DELAY_MS), options.signal);
  }
}

/** Settles after `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((settle, fail) => {
    signal?.throwIfAborted();
    const stop = () => {
      clearTimeout(timer);
      fail(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      settle();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
