import { parseArgs } from 'node:util';
import { renderSystemPrompt, toolDescriptionSchema } from '@agentstep/protocol';
import * as z from 'zod';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

const toolsFileSchema = z.array(toolDescriptionSchema);

/** `agentstep prompt`: the system prompt a session with these tools would send. */
export async function promptCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { tools: { type: 'string' }, instructions: { type: 'string' } },
  });
  if (values.tools === undefined) throw new UsageError('--tools <file.json> is required.');
  const tools = toolsFileSchema.safeParse(parseJson(await readToolsFile(values.tools, io), values.tools));
  if (!tools.success) {
    throw new UsageError(`${values.tools} is not a valid tools file:\n${z.prettifyError(tools.error)}`);
  }
  const prompt = renderSystemPrompt({
    tools: tools.data,
    ...(values.instructions === undefined ? {} : { instructions: values.instructions }),
  });
  io.stdout(`${prompt}\n`);
  return 0;
}

async function readToolsFile(path: string, io: CliIo): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError(`Cannot read the tools file ${path} (${reason}).`);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON (${error instanceof Error ? error.message : error}).`);
  }
}
