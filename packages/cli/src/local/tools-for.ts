import { join } from 'node:path';
import { LocalDirectoryWorkspace } from '@agentstep/runtime';
import { builtInTools } from '@agentstep/runtime/tools';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../usage-error.js';
import type { RunOptions } from './run-options.js';

/** The built-in tools a local agent offers; the workspace toolset works on `.agentstep/workspaces/`. */
export function toolsFor(options: Pick<RunOptions, 'tools' | 'allowHosts'>, io: CliIo) {
  try {
    return builtInTools(options.tools, {
      workspace: new LocalDirectoryWorkspace(join(io.dataDir, 'workspaces')),
      httpAllowHosts: options.allowHosts,
    });
  } catch (error) {
    throw new UsageError(`--tools: ${error instanceof Error ? error.message : error}`);
  }
}
