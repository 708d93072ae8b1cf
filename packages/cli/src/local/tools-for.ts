import { join } from 'node:path';
import { LocalDirectoryWorkspace } from '@agentstep/runtime';
import { builtInTools, type SubAgentsConfig } from '@agentstep/runtime/tools';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/**
 * The built-in tools a local agent offers; the workspace toolset works on `.agentstep/workspaces/`,
 * the agents toolset runs sub-agents as `agents` says (without it, its calls fail saying so).
 */
export function toolsFor(
  options: Pick<RunOptions, 'tools' | 'allowHosts'>,
  io: CliIo,
  agents?: SubAgentsConfig,
) {
  try {
    return builtInTools(options.tools, {
      workspace: new LocalDirectoryWorkspace(join(io.dataDir, 'workspaces')),
      httpAllowHosts: options.allowHosts,
      ...(agents ? { agents } : {}),
    });
  } catch (error) {
    throw new UsageError(`--tools: ${error instanceof Error ? error.message : error}`);
  }
}
