import {
  BATCH_TOOL_NAME,
  type CallResult,
  elementName,
  type InvokeToolInput,
  storedCall,
  type ToolOutcome,
} from '@agentstep/protocol';
import { type ApprovalVerdict, approvalVerdict } from '../approvals/approval-verdict.js';
import { settlementOf } from '../approvals/settle-approval.js';
import { ApprovalRequiredError } from '../errors.js';
import type { EventLog } from '../event-log/event-log.js';
import { mcpTool } from '../mcp/mcp-tool.js';
import { type AgentMcp, loggedMcpTools } from '../mcp/turn-mcp-tools.js';
import type { OutcomeStore, StoredOutcome } from '../outcomes/outcome-store.js';
import { type Toolset, toolsetWith } from '../tools/toolset.js';
import { validateArgs } from '../tools/validate-args.js';
import { turnOfBatch } from './batch-id.js';
import { callResult } from './call-result.js';
import { callTextOf } from './read-calls.js';
import { runOnce } from './run-once.js';

/** What InvokeTool runs on: the log, the outcomes, the agent's tools and, with MCP servers, its turns' MCP tools. */
export interface InvokeToolDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  toolset: Toolset;
  /** The agent's MCP servers: a call of one of their tools runs as the turn's logged list says. @default none */
  mcp?: AgentMcp;
}

/** What InvokeTool returns to the map: a summary, and the stored outcome only while it is small. */
export type InvokeToolOutput = CallResult;

/**
 * Runs one call of a batch and stores its outcome (B1, B2, B4); the first stored outcome is the
 * one the log will get, and the one given back. A call that waits for no approval and whose item
 * carries it reads nothing first: the outcome's conditional put keeps the first, so a redelivery
 * of an idempotent tool's call runs it again harmlessly, and one of any other tool's finds its run
 * marked started ({@link runOnce}) and answers `outcome unknown`, which the put then replaces with
 * the stored outcome. A call that waited for approval reads its stored outcome first and runs only
 * when approved, with the arguments a person may have edited; otherwise its outcome is the failure
 * its approval says. While its approval is not settled it runs nothing and throws
 * ApprovalRequired: its map item then waits for a decision.
 */
export async function invokeTool(input: InvokeToolInput, deps: InvokeToolDeps): Promise<InvokeToolOutput> {
  const ref = { session: input.session, batch: input.batch, position: input.position };
  const store = async (callText: string | undefined) =>
    deps.outcomes.put(ref, await timed(() => execute(input, callText, deps)));
  if (typeof input.call === 'string' && !input.approval) {
    return callResult(input.position, await store(input.call), input.count);
  }
  // Read together: a first delivery needs the call (read only when its item does not carry it), a
  // re-delivery only the stored outcome.
  const [stored, callText] = await Promise.all([deps.outcomes.get(ref), callTextOf(deps.log, input)]);
  return callResult(input.position, stored ?? (await store(callText)), input.count);
}

/** An outcome with how long producing it took, in whole ms (a duration, not a time of day). */
async function timed(run: () => Promise<ToolOutcome>): Promise<StoredOutcome> {
  const started = performance.now();
  const outcome = await run();
  return { ...outcome, ms: Math.round(performance.now() - started) };
}

async function execute(
  input: InvokeToolInput,
  callText: string | undefined,
  deps: InvokeToolDeps,
): Promise<ToolOutcome> {
  const element = storedCall(callText ?? 'null', input.position);
  const name = elementName(element) || BATCH_TOOL_NAME;
  if (!element.ok) return { tool: name, status: 'failure', content: element.reason };
  const verdict: ApprovalVerdict = input.approval
    ? await settledVerdict(input.session, input.approval, deps.log)
    : { run: true };
  if (!verdict.run) return { tool: name, status: 'failure', content: verdict.failure };
  const found = await findTool(element.call.name, input, deps);
  if (!found.ok) return { tool: name, status: 'failure', content: found.message };
  // The checked call is shared and frozen (storedCall): the tool gets arguments of its own.
  const check = validateArgs(found.tool, verdict.args ?? structuredClone(element.call.args));
  if (!check.ok) return { tool: name, status: 'failure', content: check.message };
  return runOnce(found.tool, check.args, input, deps);
}

/** The called tool: the agent's own, else one of the MCP tools logged for the call's turn. */
async function findTool(name: string, input: InvokeToolInput, deps: InvokeToolDeps) {
  const found = deps.toolset.find(name);
  if (found.ok || deps.mcp === undefined) return found;
  const logged = await loggedMcpTools(input.session, turnOfBatch(input.batch), deps.log);
  const { connections } = deps.mcp;
  const tools = (logged?.tools ?? []).map((entry) => mcpTool(entry, connections));
  return toolsetWith(deps.toolset, tools).find(name);
}

/** The verdict of a call's approval; ApprovalRequired while nobody has settled it (the call waits). */
async function settledVerdict(session: string, approval: string, log: EventLog): Promise<ApprovalVerdict> {
  const settlement = await settlementOf(log, session, approval);
  if (settlement === undefined) throw new ApprovalRequiredError(session, approval);
  return approvalVerdict(settlement);
}
