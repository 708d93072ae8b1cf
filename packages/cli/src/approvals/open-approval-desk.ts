import { LocalTaskTokens } from '@agentstep/local';
import { createToolset, systemClock } from '@agentstep/runtime';
import { loadAgentFile } from '../agent-file/load-agent-file.js';
import { toolsOfAgentFile } from '../agent-file/tools-of-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import type { ApprovalDesk } from './approval-desk.js';
import type { DeskAddress } from './approval-options.js';
import { LocalApprovalDesk } from './local-approval-desk.js';
import { localUserName } from './local-user-name.js';
import { ServedApprovalDesk } from './served-approval-desk.js';

/**
 * The desk at `address`: a served API, or the folder's local store, where decisions are made as
 * the OS user and edited arguments are checked against the agent's tools (`--tools` over its
 * agent file's).
 */
export async function openApprovalDesk(address: DeskAddress, io: CliIo): Promise<ApprovalDesk> {
  if (address.kind === 'served') return new ServedApprovalDesk(address);
  const loaded = await loadAgentFile(address.agentFile, io.workingDir);
  const toolset = createToolset(toolsOfAgentFile(loaded, io, address.tools));
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
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
