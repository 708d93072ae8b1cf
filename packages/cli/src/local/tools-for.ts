import { join } from 'node:path';
import { LocalDirectoryWorkspace } from '@agentstep/runtime';
import type { A2aAgentSpec } from '@agentstep/runtime/a2a';
import { type SubAgentsConfig, toolsOfAgent } from '@agentstep/runtime/tools';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/**
 * The tools a local agent offers: the built-in toolsets `--tools` (else its agent file) names, then
 * the agent file's own tools and Lambda tools, then its remote A2A agents' (`--a2a`'s over the
 * file's of the same name; a header's secret is the environment variable it names). The workspace
 * toolset works on `.agentstep/workspaces/`, the agents toolset runs sub-agents as `agents` says
 * (without it, its calls fail saying so).
 */
export function toolsFor(
  options: Pick<RunOptions, 'tools' | 'allowHosts' | 'loadedAgent'> &
    Partial<Pick<RunOptions, 'a2aAgents'>> & {
      given: Pick<RunOptions['given'], 'tools'>;
    },
  io: CliIo,
  agents?: SubAgentsConfig,
) {
  const { loadedAgent } = options;
  const agent = {
    toolsets: options.tools,
    fetchHosts: options.allowHosts,
    tools: loadedAgent?.agent.tools ?? [],
    lambdaTools: loadedAgent?.agent.lambdaTools ?? [],
    a2aAgents: remoteAgentsOf(options),
  };
  try {
    return toolsOfAgent(agent, {
      workspace: new LocalDirectoryWorkspace(join(io.dataDir, 'workspaces')),
      ...(agents ? { agents } : {}),
    });
  } catch (error) {
    const source = loadedAgent && !options.given.tools ? `${loadedAgent.file}, its toolsets` : '--tools';
    throw new UsageError(`${source}: ${error instanceof Error ? error.message : error}`, { cause: error });
  }
}

/**
 * The agent's remote A2A agents: the agent file's, with those of `--a2a` over them by name (in the
 * file's order, then the flags').
 */
export function remoteAgentsOf({
  loadedAgent,
  a2aAgents = [],
}: Pick<RunOptions, 'loadedAgent'> & Partial<Pick<RunOptions, 'a2aAgents'>>): A2aAgentSpec[] {
  const byName = new Map((loadedAgent?.agent.a2aAgents ?? []).map((spec) => [spec.name, spec]));
  for (const spec of a2aAgents) byName.set(spec.name, spec);
  return [...byName.values()];
}
