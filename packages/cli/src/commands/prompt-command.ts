import { parseArgs } from 'node:util';
import { renderSystemPrompt, type ToolDescription, toolDescriptionSchema } from '@agentstep/protocol';
import { createToolset } from '@agentstep/runtime';
import * as z from 'zod';
import { AGENT_FILE, type LoadedAgentFile, loadAgentFile } from '../agent-file/load-agent-file.js';
import { toolsOfAgentFile } from '../agent-file/tools-of-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';

const toolsFileSchema = z.array(toolDescriptionSchema);

/**
 * `agentstep prompt`: the system prompt a session would send: the agent file's (`--agent FILE`, else
 * `agent.ts` here) instructions and tools (toolsets, own tools, Lambda tools), or those of
 * `--tools <file.json>` and `--instructions TEXT`, which override the file's.
 */
export async function promptCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { tools: { type: 'string' }, instructions: { type: 'string' }, agent: { type: 'string' } },
  });
  const loaded = await loadAgentFile(values.agent, io.workingDir);
  if (loaded !== undefined) io.stderr(`agentstep: agent ${loaded.agent.name} (${loaded.file})\n`);
  const instructions = values.instructions ?? loaded?.agent.instructions;
  const prompt = renderSystemPrompt({
    tools: values.tools === undefined ? agentTools(loaded, io) : await toolsOfFile(values.tools, io),
    ...(instructions === undefined ? {} : { instructions }),
  });
  io.stdout(`${prompt}\n`);
  return 0;
}

/** The agent file's tools, as its runs offer them. */
function agentTools(loaded: LoadedAgentFile | undefined, io: CliIo): readonly ToolDescription[] {
  if (loaded === undefined)
    throw new UsageError(
      `--tools <file.json> is required where there is no agent file (${AGENT_FILE} here, or --agent FILE).`,
    );
  return createToolset(toolsOfAgentFile(loaded, io)).descriptions;
}

/** The tools of a `--tools` file. */
async function toolsOfFile(path: string, io: CliIo): Promise<readonly ToolDescription[]> {
  const tools = toolsFileSchema.safeParse(parseJson(await readToolsFile(path, io), path));
  if (!tools.success)
    throw new UsageError(`${path} is not a valid tools file:\n${z.prettifyError(tools.error)}`);
  return tools.data;
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
