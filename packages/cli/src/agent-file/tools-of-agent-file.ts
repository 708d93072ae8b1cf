import type { Tool } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { DEFAULT_TOOLSETS } from '../local/run-options.js';
import { toolsFor } from '../local/tools-for.js';
import type { AgentFlags } from './agent-flags.js';
import type { LoadedAgentFile } from './load-agent-file.js';

/**
 * The tools an agent offers, as `agentstep run` would offer them, for a command that does not run
 * it: the built-in toolsets (`--tools`) over the agent file's (else the demo toolset), fetching the
 * hosts of `--fetch-hosts` over the file's, then the file's own tools and Lambda tools, then its
 * remote A2A agents' (`--a2a`'s over the file's).
 */
export function toolsOfAgentFile(
  loaded: LoadedAgentFile | undefined,
  io: CliIo,
  flags: Partial<Pick<AgentFlags, 'toolsets' | 'fetchHosts' | 'a2aAgents'>> = {},
): Tool[] {
  const agent = loaded?.agent;
  return toolsFor(
    {
      tools: [...(flags.toolsets ?? agent?.toolsets ?? DEFAULT_TOOLSETS)],
      allowHosts: [...(flags.fetchHosts ?? agent?.fetchHosts ?? [])],
      ...(loaded === undefined ? {} : { loadedAgent: loaded }),
      ...(flags.a2aAgents === undefined ? {} : { a2aAgents: flags.a2aAgents }),
      given: { tools: flags.toolsets !== undefined },
    },
    io,
  );
}
