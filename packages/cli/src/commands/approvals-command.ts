import type { PendingApproval } from '@agentstep/protocol';
import { parseApprovalsOptions } from '../approvals/approval-options.js';
import { openApprovalDesk } from '../approvals/open-approval-desk.js';
import type { CliIo } from '../io/cli-io.js';

/**
 * `agentstep approvals SESSION [--json] [--url URL] [--token NAME] [agent options]`: the session's
 * calls waiting for a decision, one line each (`--json`: the API's `{"approvals": [...]}`). Exit 0,
 * also when none waits; 1 when the session does not exist.
 */
export async function approvalsCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseApprovalsOptions(args);
  const desk = await openApprovalDesk(options.desk, io, { checksArgs: false });
  try {
    const list = await desk.pending(options.session);
    if (options.json) io.stdout(`${JSON.stringify(list)}\n`);
    else if (list.approvals.length === 0)
      io.stdout(`No call of session ${options.session} waits for approval.\n`);
    else for (const approval of list.approvals) io.stdout(`${describePending(approval)}\n`);
    return 0;
  } finally {
    await desk.close();
  }
}

function describePending({ id, tool, args, requestedAt, expiresAt }: PendingApproval): string {
  return `${id}  ${tool} ${JSON.stringify(args)}  requested ${requestedAt}, expires ${expiresAt}`;
}
