import { renderContext, renderContextInputSchema } from '@agentstep/protocol';
import * as z from 'zod';
import type { CliIo } from '../io/cli-io.js';
import { readAll } from '../io/read-all.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/** How much of a bad stdin a usage error quotes. */
const QUOTED_CHARS = 80;

/**
 * `agentstep render-context`: reads one JSON description from stdin and prints the workflow XML
 * document it describes, exactly, with no newline added. Bad JSON or a field the schema refuses
 * is a usage error (exit 2) that quotes what it received and names the field.
 */
export async function renderContextCommand(args: string[], io: CliIo): Promise<number> {
  parseOptions({ args, options: {} });
  const text = await readAll(io.stdin);
  const input = renderContextInputSchema.safeParse(parseJson(text));
  if (!input.success) {
    throw new UsageError(
      `stdin is not a valid render-context description (received ${quoted(text)}):\n${z.prettifyError(input.error)}`,
    );
  }
  io.stdout(renderContext(input.data));
  return 0;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') {
    throw new UsageError('expects one JSON description on stdin, received nothing.');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`stdin is not valid JSON (${reason}); received ${quoted(text)}.`);
  }
}

function quoted(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= QUOTED_CHARS
    ? JSON.stringify(trimmed)
    : `${JSON.stringify(trimmed.slice(0, QUOTED_CHARS))}… (${trimmed.length} characters)`;
}
