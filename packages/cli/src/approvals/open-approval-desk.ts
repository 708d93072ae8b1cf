import { LocalTaskTokens } from '@agentstep/local';
import { createToolset, systemClock } from '@agentstep/runtime';
import { loadAgentFile } from '../agent-file/load-agent-file.js';
import { mcpToolsOf } from '../agent-file/mcp-tools-of.js';
import { toolsOfAgentFile } from '../agent-file/tools-of-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import type { ApprovalDesk } from './approval-desk.js';
import type { DeskAddress } from './approval-options.js';
import { LocalApprovalDesk } from './local-approval-desk.js';
import { localUserName } from './local-user-name.js';
import { ServedApprovalDesk } from './served-approval-desk.js';

/**
 * The desk at `address`: a served API, or the folder's local store, where decisions are made as
 * the OS user and edited arguments are checked against the agent's tools, as the agent options
 * name them. Its MCP servers are asked for their tools only when `checksArgs` (a decision edits
 * arguments): listing and plain decisions need no server.
 */
export async function openApprovalDesk(
  address: DeskAddress,
  io: CliIo,
  { checksArgs }: { checksArgs: boolean },
): Promise<ApprovalDesk> {
  if (address.kind === 'served') return new ServedApprovalDesk(address);
  const loaded = await loadAgentFile(address.agentFile, io.workingDir);
  const tools = toolsOfAgentFile(loaded, io, address);
  const notice = (text: string) => io.stderr(`agentstep: ${text}\n`);
  const mcpTools = checksArgs
    ? await mcpToolsOf(
        tools.map(({ name }) => name),
        loaded,
        address.mcpServers,
        notice,
      )
    : [];
  const toolset = createToolset([...tools, ...mcpTools]);
  const store = await io.openStore('dynamodb-local', notice);
  return new LocalApprovalDesk({
    ...store,
    toolset,
    // No task waits in this process: a decision's completion goes to the waiting one through the store.
    taskTokens: new LocalTaskTokens(store.completions),
    clock: systemClock,
    by: localUserName(),
    dataDir: io.dataDir,
  });
}
