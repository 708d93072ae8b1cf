import type { Tool } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { DEFAULT_TOOLSETS } from '../local/run-options.js';
import { toolsFor } from '../local/tools-for.js';
import type { AgentFlags } from './agent-flags.js';
import type { LoadedAgentFile } from './load-agent-file.js';

/**
 * The tools an agent offers, as `agentstep run` would offer them, for a command that does not run
 * it: the built-in toolsets (`--tools`) over the agent file's (else the demo toolset), fetching the
 * hosts of `--fetch-hosts` over the file's, then the file's own tools and Lambda tools.
 */
export function toolsOfAgentFile(
  loaded: LoadedAgentFile | undefined,
  io: CliIo,
  flags: Pick<AgentFlags, 'toolsets' | 'fetchHosts'> = {},
): Tool[] {
  const agent = loaded?.agent;
  return toolsFor(
    {
      tools: [...(flags.toolsets ?? agent?.toolsets ?? DEFAULT_TOOLSETS)],
      allowHosts: [...(flags.fetchHosts ?? agent?.fetchHosts ?? [])],
      ...(loaded === undefined ? {} : { loadedAgent: loaded }),
      given: { tools: flags.toolsets !== undefined },
    },
    io,
  );
}
