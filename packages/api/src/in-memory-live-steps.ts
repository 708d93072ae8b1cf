import { createParser, type StreamingParser } from '@agentstep/protocol';
import {
  type AppendRequest,
  type EventLog,
  eventLogWith,
  type StepStream,
  type StreamedChunk,
} from '@agentstep/runtime';
import type { LiveSteps, LiveText } from './live-steps.js';

/** The step a session's model is streaming: its token-mode parser, and what its pieces carry. */
interface StreamingStep {
  step: number;
  parser: StreamingParser;
  index: number;
  afterSeq: number;
}

/**
 * {@link LiveSteps} within one process, fed by the engine's `StepStream`: each step's chunks go
 * through the protocol's token-mode parser, so markup (`<think>`, `<execute>`, a call's JSON) never
 * reaches a listener. Give the engine the log `watch` returns: each piece then knows the log's last
 * seq as its step began, by which a stream puts it among the stored events.
 */
export class InMemoryLiveSteps implements StepStream, LiveSteps {
  readonly #listeners = new Map<string, Set<(text: LiveText) => void>>();
  readonly #steps = new Map<string, StreamingStep>();
  /** Each session's highest seq this process appended or read. */
  readonly #lastSeq = new Map<string, number>();

  write({ session, step, text }: StreamedChunk): void {
    const streaming = this.#streaming(session, step);
    for (const event of streaming.parser.push(text)) {
      if ((event.type !== 'think' && event.type !== 'respond') || event.content === '') continue;
      const piece = { session, step, index: streaming.index++, kind: event.type, text: event.content };
      for (const listener of this.#listeners.get(session) ?? [])
        listener({ ...piece, afterSeq: streaming.afterSeq });
    }
  }

  subscribe(session: string, listener: (text: LiveText) => void): () => void {
    const listeners = this.#listeners.get(session) ?? new Set();
    this.#listeners.set(session, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(session);
    };
  }

  /** `log`, telling these live steps each session's last seq as it is appended or read. */
  watch(log: EventLog): EventLog {
    const append = async (request: AppendRequest) => {
      const result = await log.append(request);
      // A step's output is over once anything is appended after it began.
      this.#steps.delete(request.session);
      this.#saw(request.session, result.firstSeq + result.count - 1);
      return result;
    };
    const read: EventLog['read'] = async (session, options) => {
      const events = await log.read(session, options);
      this.#saw(session, events.at(-1)?.seq ?? 0);
      return events;
    };
    return eventLogWith(log, { append, read });
  }

  #saw(session: string, seq: number): void {
    if (seq > (this.#lastSeq.get(session) ?? 0)) this.#lastSeq.set(session, seq);
  }

  #streaming(session: string, step: number): StreamingStep {
    const current = this.#steps.get(session);
    if (current?.step === step) return current;
    const afterSeq = this.#lastSeq.get(session) ?? 0;
    const started = { step, parser: createParser({ mode: 'token' }), index: 0, afterSeq };
    this.#steps.set(session, started);
    return started;
  }
}
