import type { Model, ModelRequest } from './model.js';
import type { Cassette } from './replay-model.js';

/**
 * Wraps a model and records every step's chunks exactly as they streamed, by the step's index in
 * the session, into a cassette that `ReplayModel` plays back. Recording into an existing cassette
 * keeps its other steps, so later turns of a session can be added to it.
 */
export class RecordingModel implements Model {
  readonly #inner: Model;
  readonly #steps: string[][];

  constructor(inner: Model, existing?: Cassette) {
    this.#inner = inner;
    this.#steps = existing?.steps.map((step) => [...step.chunks]) ?? [];
  }

  async *stream(request: ModelRequest): AsyncIterable<string> {
    const chunks: string[] = [];
    try {
      for await (const chunk of this.#inner.stream(request)) {
        chunks.push(chunk);
        yield chunk;
      }
    } finally {
      // Also when the loop stopped reading at </execute>: what streamed is what the step was.
      while (this.#steps.length < request.step) this.#steps.push([]);
      this.#steps[request.step] = chunks;
    }
  }

  /** Everything recorded so far. */
  cassette(): Cassette {
    return { version: 1, steps: this.#steps.map((chunks) => ({ chunks })) };
  }
}
