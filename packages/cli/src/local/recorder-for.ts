import { type Cassette, cassetteSchema, type Model, RecordingModel } from '@agentstep/runtime';
import * as z from 'zod';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

/**
 * A model wrapped to record into `path` (`--record`), and how to save what it recorded. The path is
 * checked now, by writing what it holds back, so a path that cannot be written fails before the run.
 */
export async function recorderFor(
  model: Model,
  path: string,
  io: CliIo,
): Promise<{ model: Model; save(): Promise<void> }> {
  const text = await io.readFile(path).catch(() => undefined);
  const recorder = new RecordingModel(model, existingCassette(text, path));
  await io.writeFile(path, text ?? '').catch((error: unknown) => {
    throw new UsageError(
      `--record: cannot write ${path} (${error instanceof Error ? error.message : error}).`,
    );
  });
  return {
    model: recorder,
    save: () => io.writeFile(path, `${JSON.stringify(recorder.cassette(), null, 2)}\n`),
  };
}

/** The cassette already in the file, to add this run's steps to; none when it is missing or empty. */
function existingCassette(text: string | undefined, path: string): Cassette | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return cassetteSchema.parse(JSON.parse(text));
  } catch (error) {
    const detail = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
    throw new UsageError(`--record: ${path} exists and is not a cassette:\n${detail}`);
  }
}
