import type { CliIo } from '../io/cli-io.js';
import type { RunOptions } from '../local/run-options.js';
import { loadAgentFile } from './load-agent-file.js';
import { withAgentFile } from './with-agent-file.js';

/**
 * The options a command runs its agent with: its flags over the agent file's settings (`--agent
 * FILE`, else `agent.ts` in the working directory, else the flags alone); `notice` hears which
 * agent it is.
 */
export async function agentOptions(
  options: RunOptions,
  io: Pick<CliIo, 'workingDir'>,
  notice: (text: string) => void,
): Promise<RunOptions> {
  const loaded = await loadAgentFile(options.agentFile, io.workingDir);
  if (loaded !== undefined) notice(`agent ${loaded.agent.name} (${loaded.file})`);
  return withAgentFile(options, loaded);
}
