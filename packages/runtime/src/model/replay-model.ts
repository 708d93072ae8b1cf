import * as z from 'zod';
import type { ModelRequest } from './model.js';
import { type PlayedStep, parseJsonWith, ScriptedModel, scriptedStepSchema } from './scripted-model.js';

/** A recorded session: each model step's output chunks and usage, as `--record` writes them. */
export const cassetteSchema = z.object({
  version: z.literal(1),
  /** The model the cassette was recorded from, so replayed metrics and prices name it. */
  model: z.string().optional(),
  steps: z.array(scriptedStepSchema).min(1, 'a cassette needs at least one model step'),
});

/** A cassette's contents. */
export type Cassette = z.infer<typeof cassetteSchema>;

/**
 * Replays a cassette: each model step of the session streams the chunks recorded for it, in order,
 * and its usage.
 */
export class ReplayModel extends ScriptedModel {
  constructor(cassette: Cassette, source = 'the cassette') {
    super(cassette.steps, source, cassette.model ?? 'replay');
  }

  /** Reads a cassette file's text; throws an error that names the file and each problem. */
  static fromCassette(text: string, source: string): ReplayModel {
    return new ReplayModel(parseJsonWith(cassetteSchema, text, source), source);
  }

  /** The session's step: `--record` writes a cassette by session step, across the session's turns. */
  protected override played(request: ModelRequest): PlayedStep {
    return { index: request.step, of: 'session' };
  }
}
