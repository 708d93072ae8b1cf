import { renderSystemPrompt, type ToolDescription, toolDescriptionSchema } from '@agentstep/protocol';
import { createToolset } from '@agentstep/runtime';
import * as z from 'zod';
import { AGENT_OPTIONS, agentFlagsOf } from '../agent-file/agent-flags.js';
import { AGENT_FILE, loadAgentFile } from '../agent-file/load-agent-file.js';
import { mcpToolsOf } from '../agent-file/mcp-tools-of.js';
import { toolsOfAgentFile } from '../agent-file/tools-of-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

const toolsFileSchema = z.array(toolDescriptionSchema);

/** A `--tools` value that names a file of tool descriptions rather than toolsets. */
const TOOLS_FILE = /\.json$/i;

/**
 * `agentstep prompt [agent options] [--instructions TEXT]`: the system prompt a session would send:
 * the agent file's (`--agent FILE`, else `agent.ts` here) instructions and tools, as `agentstep
 * run` offers them (toolsets, own tools, Lambda tools, then its MCP servers' tools, listed from the
 * servers). `--tools FILE.json` (tool descriptions) replaces the agent's own tools, and
 * `--instructions TEXT` its instructions.
 */
export async function promptCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions({
    args,
    options: { ...AGENT_OPTIONS, instructions: { type: 'string' } },
  });
  const file = values.tools !== undefined && TOOLS_FILE.test(values.tools) ? values.tools : undefined;
  const { tools: _, ...others } = values;
  const flags = agentFlagsOf(file === undefined ? values : others);
  const loaded = await loadAgentFile(flags.agentFile, io.workingDir);
  const notice = (text: string) => io.stderr(`agentstep: ${text}\n`);
  if (loaded !== undefined) notice(`agent ${loaded.agent.name} (${loaded.file})`);
  const nothingNamed = file === undefined && flags.toolsets === undefined;
  if (loaded === undefined && nothingNamed && Object.keys(flags.mcpServers).length === 0)
    throw new UsageError(
      `--tools is required where there is no agent file (${AGENT_FILE} here, or --agent FILE): built-in toolsets (--tools demo,workspace) or tool descriptions (--tools FILE.json).`,
    );
  const own =
    file === undefined
      ? createToolset(toolsOfAgentFile(loaded, io, flags)).descriptions
      : await toolsOfFile(file, io);
  const mcp = await mcpToolsOf(
    own.map(({ name }) => name),
    loaded,
    flags.mcpServers,
    notice,
  );
  const instructions = values.instructions ?? loaded?.agent.instructions;
  const prompt = renderSystemPrompt({
    tools: [...own, ...createToolset(mcp).descriptions],
    ...(instructions === undefined ? {} : { instructions }),
  });
  io.stdout(`${prompt}\n`);
  return 0;
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
