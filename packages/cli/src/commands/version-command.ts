import { agentOptions } from '../agent-file/agent-options.js';
import type { CliIo } from '../io/cli-io.js';
import { agentVersionOf } from '../local/agent-version-of.js';
import { lateSubAgents } from '../local/late-sub-agents.js';
import { loadDefinition } from '../local/open-engine.js';
import { parseRunOptions } from '../local/run-options.js';
import { toolsFor } from '../local/tools-for.js';

/**
 * `agentstep version [--json] [agent options]`: the version of the agent `run` and `serve` would run
 * with the same options (decision 0040), a short hash of what decides its behaviour; with `--json`,
 * `{"version", "inputs"}`: the hash and what went into it.
 */
export async function versionCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseRunOptions(args);
  const options = await agentOptions(parsed, io, () => {});
  const tools = toolsFor(options, io, lateSubAgents().config);
  const { version, inputs } = agentVersionOf(options, tools, await loadDefinition(options, io));
  io.stdout(options.json ? `${JSON.stringify({ version, inputs })}\n` : `${version}\n`);
  return 0;
}
