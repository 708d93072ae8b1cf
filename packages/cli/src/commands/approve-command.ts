import type { ApprovalDecided, ApprovalDecisionBody } from '@agentstep/protocol';
import { parseApproveOptions } from '../approvals/approval-options.js';
import { openApprovalDesk } from '../approvals/open-approval-desk.js';
import type { CliIo } from '../io/cli-io.js';

/**
 * `agentstep approve SESSION ID [--deny] [--reason TEXT] [--args JSON] [--json] [--url URL]
 * [--token NAME] [agent options]`: decides one waiting call, and its run goes on
 * wherever it runs. Prints one sentence (`--json`: the API's `{"id", "decision"}`). Exit 0 when
 * decided; 1 when the session or approval does not exist, it was decided already, or the tool
 * refuses the edited args.
 */
export async function approveCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseApproveOptions(args);
  const desk = await openApprovalDesk(options.desk, io, { checksArgs: options.body.args !== undefined });
  try {
    const decided = await desk.decide(options.session, options.approval, options.body);
    io.stdout(`${options.json ? JSON.stringify(decided) : describeDecision(decided, options.body)}\n`);
    return 0;
  } finally {
    await desk.close();
  }
}

function describeDecision({ id, decision }: ApprovalDecided, { reason, args }: ApprovalDecisionBody): string {
  if (decision === 'deny')
    return `Denied ${id}${reason === undefined ? '' : ` (${reason})`}: the model reads the denial.`;
  return `Approved ${id}${args === undefined ? '' : ' with the edited arguments'}: the call runs now.`;
}
