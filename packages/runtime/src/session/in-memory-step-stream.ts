import type { StepStream, StreamedChunk } from './step-stream.js';

/** A {@link StepStream} within one process: the model step and its followers share it. */
export class InMemoryStepStream implements StepStream {
  readonly #listeners = new Map<string, Set<(chunk: StreamedChunk) => void>>();

  write(chunk: StreamedChunk): void {
    for (const listener of this.#listeners.get(chunk.session) ?? []) listener(chunk);
  }

  /** Hands each chunk `session` streams from now on to `listener`; returns how to stop. */
  subscribe(session: string, listener: (chunk: StreamedChunk) => void): () => void {
    const listeners = this.#listeners.get(session) ?? new Set();
    this.#listeners.set(session, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(session);
    };
  }
}
