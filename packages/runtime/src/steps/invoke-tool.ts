import {
  BATCH_TOOL_NAME,
  checkCall,
  type InvokeToolInput,
  type StoredEvent,
  type ToolOutcome,
} from '@agentstep/protocol';
import { type ApprovalVerdict, approvalVerdict } from '../approvals/approval-verdict.js';
import { settlementOf } from '../approvals/settle-approval.js';
import { ApprovalRequiredError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import { runTool } from '../tools/run-tool.js';
import type { Toolset } from '../tools/toolset.js';
import { validateArgs } from '../tools/validate-args.js';
import { calledTool, readCalls } from './read-calls.js';

/** What InvokeTool returns to the map: a summary, never the output itself. */
export interface InvokeToolOutput {
  position: number;
  status: ToolOutcome['status'];
}

/**
 * Runs one call of a batch and stores its outcome (B1, B2, B4). A re-delivered invocation finds
 * the stored outcome and runs nothing; the first stored outcome is the one the log will get. A
 * call that waited for approval runs only when approved, with the arguments a person may have
 * edited; otherwise its outcome is the failure its approval says. While its approval is not
 * settled it runs nothing and throws ApprovalRequired: its map item then waits for a decision.
 */
export async function invokeTool(
  input: InvokeToolInput,
  deps: { log: EventLog; outcomes: OutcomeStore; toolset: Toolset },
): Promise<InvokeToolOutput> {
  const ref = { session: input.session, batch: input.batch, position: input.position };
  // Read together: a first delivery needs the call, a re-delivery only the stored outcome.
  const [stored, calls] = await Promise.all([deps.outcomes.get(ref), readCalls(deps.log, input, [input])]);
  const outcome =
    stored ?? (await deps.outcomes.put(ref, await execute(input, calls.get(input.position), deps)));
  return { position: input.position, status: outcome.status };
}

async function execute(
  input: InvokeToolInput,
  stored: StoredEvent | undefined,
  deps: { log: EventLog; toolset: Toolset },
): Promise<ToolOutcome> {
  const name = calledTool(stored) || BATCH_TOOL_NAME;
  const element = checkCall(JSON.parse(stored?.event.content ?? 'null'), input.position);
  if (!element.ok) return { tool: name, status: 'failure', content: element.reason };
  const verdict: ApprovalVerdict = input.approval
    ? await settledVerdict(input.session, input.approval, deps.log)
    : { run: true };
  if (!verdict.run) return { tool: name, status: 'failure', content: verdict.failure };
  const found = deps.toolset.find(element.call.name);
  if (!found.ok) return { tool: name, status: 'failure', content: found.message };
  const check = validateArgs(found.tool, verdict.args ?? element.call.args);
  if (!check.ok) return { tool: name, status: 'failure', content: check.message };
  return runTool(found.tool, check.args, input);
}

/** The verdict of a call's approval; ApprovalRequired while nobody has settled it (the call waits). */
async function settledVerdict(session: string, approval: string, log: EventLog): Promise<ApprovalVerdict> {
  const settlement = await settlementOf(log, session, approval);
  if (settlement === undefined) throw new ApprovalRequiredError(session, approval);
  return approvalVerdict(settlement);
}
