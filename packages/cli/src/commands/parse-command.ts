import { createParser, type ParseMode } from '@agentstep/protocol';
import * as z from 'zod';
import type { CliIo } from '../io/cli-io.js';
import { readAll } from '../io/read-all.js';
import { splitChunks } from '../io/split-chunks.js';
import { wireLine } from '../io/wire-line.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

const chunksSchema = z.array(z.string());

/** `agentstep parse`: exit 0 for any model output, garbage included. */
export async function parseCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions({
    args,
    options: {
      mode: { type: 'string', default: 'event' },
      'chunk-size': { type: 'string' },
      'chunks-json': { type: 'boolean', default: false },
    },
  });
  const mode = parseMode(values.mode);
  const chunkSize = values['chunk-size'] === undefined ? undefined : parseChunkSize(values['chunk-size']);
  const parser = createParser({ mode });
  const emit = (events: ReturnType<typeof parser.push>) => {
    for (const event of events) io.stdout(wireLine(event, io.now()));
  };
  const input = values['chunks-json'] ? await readChunks(io.stdin) : io.stdin;
  for await (const chunk of input) {
    for (const piece of chunkSize === undefined ? [chunk] : splitChunks(chunk, chunkSize))
      emit(parser.push(piece));
  }
  emit(parser.end());
  return 0;
}

function parseMode(mode: string | undefined): ParseMode {
  if (mode === 'event' || mode === 'token') return mode;
  throw new UsageError(`--mode must be "event" or "token", received "${mode}".`);
}

function parseChunkSize(text: string): number {
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1) {
    throw new UsageError(`--chunk-size must be a whole number of at least 1, received "${text}".`);
  }
  return size;
}

async function readChunks(stdin: AsyncIterable<string>): Promise<string[]> {
  const text = await readAll(stdin);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(
      '--chunks-json expects stdin to be a JSON array of strings, but it is not valid JSON.',
    );
  }
  const chunks = chunksSchema.safeParse(value);
  if (!chunks.success) {
    throw new UsageError(
      `--chunks-json expects stdin to be a JSON array of strings:\n${z.prettifyError(chunks.error)}`,
    );
  }
  return chunks.data;
}
