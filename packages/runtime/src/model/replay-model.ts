import { z } from 'zod';
import { parseJsonWith, ScriptedModel } from './scripted-model.js';

/** A recorded session: each model step's output chunks, as `--record` writes them. */
export const cassetteSchema = z.object({
  version: z.literal(1),
  steps: z
    .array(z.object({ chunks: z.array(z.string()) }))
    .min(1, 'a cassette needs at least one model step'),
});

/** A cassette's contents. */
export type Cassette = z.infer<typeof cassetteSchema>;

/** Replays a cassette: each model step streams the chunks recorded for it, in order. */
export class ReplayModel extends ScriptedModel {
  constructor(cassette: Cassette, source = 'the cassette') {
    super(
      cassette.steps.map((step) => step.chunks),
      source,
    );
  }

  /** Reads a cassette file's text; throws an error that names the file and each problem. */
  static fromCassette(text: string, source: string): ReplayModel {
    return new ReplayModel(parseJsonWith(cassetteSchema, text, source), source);
  }
}
