import { ERROR_NAMES } from '@agentstep/protocol';
import { z } from 'zod';
import type { Model, ModelRequest } from './model.js';

/** A script: one element per model step, a string or an array of chunks streamed in order. */
export const modelScriptSchema = z
  .array(z.union([z.string(), z.array(z.string())]))
  .min(1, 'a script needs at least one model step');

/** The script (or cassette) has no output for the requested step. */
export class ScriptEndedError extends Error {
  override readonly name = ERROR_NAMES.scriptEnded;
}

/**
 * A model that plays back a fixed script, step by step of the session, and records every request
 * it received (`calls`), so tests can assert on what the model was shown.
 */
export class ScriptedModel implements Model {
  readonly calls: ModelRequest[] = [];
  readonly #steps: ReadonlyArray<readonly string[]>;
  readonly #source: string;

  constructor(steps: ReadonlyArray<string | readonly string[]>, source = 'the script') {
    this.#steps = steps.map((step) => (typeof step === 'string' ? [step] : step));
    this.#source = source;
  }

  /** Reads a script file's text; throws an error that names the file and each problem. */
  static fromJson(text: string, source: string): ScriptedModel {
    return new ScriptedModel(parseJsonWith(modelScriptSchema, text, source), source);
  }

  async *stream(request: ModelRequest): AsyncIterable<string> {
    this.calls.push(request);
    const chunks = this.#steps[request.step];
    if (chunks === undefined) {
      throw new ScriptEndedError(
        `${this.#source} has ${this.#steps.length} model steps, and step ${request.step + 1} was requested: add more steps or lower --max-steps.`,
      );
    }
    yield* chunks;
  }
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
