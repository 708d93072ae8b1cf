import { createParser, type StreamingParser } from '@agentstep/protocol';
import type { StreamedChunk } from '@agentstep/runtime';
import type { LiveText } from './live-steps.js';

/** The step a session's model is streaming: its token-mode parser, and what its pieces carry. */
interface StreamingStep {
  step: number;
  parser: StreamingParser;
  index: number;
  afterSeq: number;
}

/**
 * Model steps' streamed text made into {@link LiveText} pieces: each session's current step goes
 * through the protocol's token-mode parser, so markup (`<think>`, `<execute>`, a call's JSON) never
 * reaches a piece, and its pieces are numbered from 0. Shared by every `LiveSteps`.
 */
export class StepTexts {
  readonly #steps = new Map<string, StreamingStep>();

  /**
   * The pieces `chunk` completes. A chunk of a new step starts that step; `afterSeq` says then
   * where it began (the log's last seq).
   */
  push({ session, step, text }: StreamedChunk, afterSeq: () => number): LiveText[] {
    const streaming = this.#streaming(session, step, afterSeq);
    const pieces: LiveText[] = [];
    for (const event of streaming.parser.push(text)) {
      if ((event.type !== 'think' && event.type !== 'respond') || event.content === '') continue;
      const index = streaming.index++;
      pieces.push({
        session,
        step,
        index,
        kind: event.type,
        text: event.content,
        afterSeq: streaming.afterSeq,
      });
    }
    return pieces;
  }

  /** Forgets `session`'s current step: its output is over. */
  end(session: string): void {
    this.#steps.delete(session);
  }

  #streaming(session: string, step: number, afterSeq: () => number): StreamingStep {
    const current = this.#steps.get(session);
    if (current?.step === step) return current;
    const started = { step, parser: createParser({ mode: 'token' }), index: 0, afterSeq: afterSeq() };
    this.#steps.set(session, started);
    return started;
  }
}
