import { type Cassette, cassetteSchema, type Model, RecordingModel } from '@agentstep/runtime';
import * as z from 'zod';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

/** A model wrapped to record into `path` (`--record`), and how to save what it recorded. */
export async function recorderFor(
  model: Model,
  path: string,
  io: CliIo,
): Promise<{ model: Model; save(): Promise<void> }> {
  const recorder = new RecordingModel(model, await existingCassette(path, io));
  return {
    model: recorder,
    save: () => io.writeFile(path, `${JSON.stringify(recorder.cassette(), null, 2)}\n`),
  };
}

/** The cassette already at `path`, to add this run's steps to; none when the file does not exist. */
async function existingCassette(path: string, io: CliIo): Promise<Cassette | undefined> {
  const text = await io.readFile(path).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return cassetteSchema.parse(JSON.parse(text));
  } catch (error) {
    const detail = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
    throw new UsageError(`--record: ${path} exists and is not a cassette:\n${detail}`);
  }
}
