import { ERROR_NAMES } from '@agentstep/protocol';
import * as z from 'zod';
import type { Model, ModelPart, ModelRequest } from './model.js';
import { modelUsageSchema } from './model-usage.js';
import { scriptedSummary } from './scripted-summary.js';

/** One scripted step: its chunks, and the usage it reports. */
export const scriptedStepSchema = z.object({
  chunks: z.array(z.string()),
  usage: modelUsageSchema.optional(),
});

/** A scripted step. */
export type ScriptedStep = z.infer<typeof scriptedStepSchema>;

/**
 * A script: one element per model step — a string, an array of chunks streamed in order, or
 * `{ "chunks": [...], "usage": {...} }` for a step that reports token usage.
 */
export const modelScriptSchema = z
  .array(z.union([z.string(), z.array(z.string()), scriptedStepSchema]))
  .min(1, 'a script needs at least one model step');

/** The script (or cassette) has no output for the requested step. */
export class ScriptEndedError extends Error {
  override readonly name = ERROR_NAMES.scriptEnded;
}

/** Which element a request plays: its step's index, from 0, in the turn or in the session. */
export interface PlayedStep {
  index: number;
  of: 'turn' | 'session';
}

/** How many of its latest requests a scripted model keeps (`calls`): a long session's must not pile up. */
export const KEPT_CALLS = 100;

/**
 * A model that plays back a fixed script, step by step of each turn — every turn plays it from its
 * first element — and records the requests it received (`calls`, the latest {@link KEPT_CALLS}), so
 * tests can assert on what the model was shown. A compaction's request plays no step: it is answered with
 * {@link scriptedSummary}, without usage.
 */
export class ScriptedModel implements Model {
  readonly id: string;
  readonly calls: ModelRequest[] = [];
  readonly #steps: readonly ScriptedStep[];
  readonly #source: string;

  constructor(steps: z.input<typeof modelScriptSchema>, source = 'the script', id = 'scripted') {
    this.#steps = steps.map(toStep);
    this.#source = source;
    this.id = id;
  }

  /** Reads a script file's text; throws an error that names the file and each problem. */
  static fromJson(text: string, source: string): ScriptedModel {
    return new ScriptedModel(parseJsonWith(modelScriptSchema, text, source), source);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelPart> {
    this.calls.push(request);
    if (this.calls.length > KEPT_CALLS) this.calls.splice(0, this.calls.length - KEPT_CALLS);
    if (request.purpose === 'compaction') {
      yield scriptedSummary(request);
      return;
    }
    const played = this.played(request);
    const step = this.#steps[played.index];
    if (step === undefined) {
      throw new ScriptEndedError(
        `${this.#source} has ${this.#steps.length} model steps, and step ${played.index + 1} of the ${played.of} was requested: add more steps or lower --max-steps.`,
      );
    }
    // Usage first: the loop stops reading at </execute>, and what it read is what the step cost.
    if (step.usage) yield step.usage;
    yield* step.chunks;
  }

  /** The turn's own step: a script is what one turn's model says, so each turn starts it afresh. */
  protected played(request: ModelRequest): PlayedStep {
    return { index: request.turnStep, of: 'turn' };
  }
}

function toStep(step: z.input<typeof modelScriptSchema>[number]): ScriptedStep {
  if (typeof step === 'string') return { chunks: [step] };
  if (Array.isArray(step)) return { chunks: step };
  return { chunks: step.chunks, ...(step.usage ? { usage: modelUsageSchema.parse(step.usage) } : {}) };
}

/** Parses JSON text with a schema; errors say which file and what is wrong. */
export function parseJsonWith<T>(schema: z.ZodType<T>, text: string, source: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON (${error instanceof Error ? error.message : error}).`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${source} is not valid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
