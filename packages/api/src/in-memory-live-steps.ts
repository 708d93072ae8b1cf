import { type EventLog, LastSeqs, type StepStream, type StreamedChunk } from '@agentstep/runtime';
import { Listeners } from './listeners.js';
import type { LiveSteps, LiveText } from './live-steps.js';
import { StepTexts } from './step-texts.js';

/**
 * {@link LiveSteps} within one process, fed by the engine's `StepStream`: each step's chunks go
 * through the protocol's token-mode parser ({@link StepTexts}), so markup (`<think>`, `<execute>`,
 * a call's JSON) never reaches a listener. Give the engine the log `watch` returns: each piece then
 * knows the log's last seq as its step began, by which a stream puts it among the stored events.
 */
export class InMemoryLiveSteps implements StepStream, LiveSteps {
  readonly #listeners = new Listeners<LiveText>();
  readonly #texts = new StepTexts();
  readonly #seqs = new LastSeqs();

  write(chunk: StreamedChunk): void {
    for (const piece of this.#texts.push(chunk, () => this.#seqs.of(chunk.session)))
      this.#listeners.hand(chunk.session, piece);
  }

  subscribe(session: string, listener: (text: LiveText) => void): () => void {
    return this.#listeners.add(session, listener);
  }

  /** `log`, telling these live steps each session's last seq as it is appended or read. */
  watch(log: EventLog): EventLog {
    return this.#seqs.watch(log, (session) => this.#texts.end(session));
  }
}
