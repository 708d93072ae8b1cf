import type { Model, ModelPart, ModelRequest } from './model.js';
import { addUsage, type ModelUsage } from './model-usage.js';
import { reasoningAsThink } from './reasoning-as-think.js';
import type { Cassette } from './replay-model.js';
import type { ScriptedStep } from './scripted-model.js';

/**
 * Wraps a model and records every step's chunks exactly as they streamed, and the usage the
 * provider reported, by the step's index in the session, into a cassette that `ReplayModel` plays
 * back. Recording into an existing cassette keeps its other steps, so later turns of a session can
 * be added to it. A compaction's request passes through unrecorded: it is no step of the session,
 * and a replay answers it the scripted way.
 */
export class RecordingModel implements Model {
  readonly id: string;
  readonly usageMayBeUnknown: boolean;
  readonly contextWindow?: number;
  readonly #inner: Model;
  readonly #steps: ScriptedStep[];

  constructor(inner: Model, existing?: Cassette) {
    this.id = inner.id;
    this.usageMayBeUnknown = inner.usageMayBeUnknown ?? false;
    if (inner.contextWindow !== undefined) this.contextWindow = inner.contextWindow;
    this.#inner = inner;
    this.#steps = existing?.steps.map((step) => structuredClone(step)) ?? [];
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
    // Keyed by session step, its summary would overwrite the step that follows it.
    if (request.purpose === 'compaction') {
      yield* this.#inner.stream(request);
      return;
    }
    const chunks: string[] = [];
    let usage: ModelUsage | undefined;
    try {
      // Native reasoning is recorded as the `<think>` blocks the step's parser reads it as.
      for await (const part of reasoningAsThink(this.#inner.stream(request))) {
        if (typeof part === 'string') chunks.push(part);
        else usage = usage ? addUsage(usage, part) : part;
        yield part;
      }
    } finally {
      // Also when the loop stopped reading at </execute>: what streamed is what the step was.
      while (this.#steps.length < request.step) this.#steps.push({ chunks: [] });
      this.#steps[request.step] = { chunks, ...(usage ? { usage } : {}) };
    }
  }

  /** Everything recorded so far. */
  cassette(): Cassette {
    return { version: 1, model: this.id, steps: this.#steps };
  }
}
