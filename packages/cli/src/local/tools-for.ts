import { join } from 'node:path';
import { LocalDirectoryWorkspace } from '@agentstep/runtime';
import { type SubAgentsConfig, toolsOfAgent } from '@agentstep/runtime/tools';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/**
 * The tools a local agent offers: the built-in toolsets `--tools` (else its agent file) names, then
 * the agent file's own tools and Lambda tools. The workspace toolset works on `.agentstep/workspaces/`,
 * the agents toolset runs sub-agents as `agents` says (without it, its calls fail saying so).
 */
export function toolsFor(
  options: Pick<RunOptions, 'tools' | 'allowHosts' | 'loadedAgent'> & {
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
