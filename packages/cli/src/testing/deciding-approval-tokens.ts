import {
  type ApprovalDecisionBody,
  type ApprovalRecord,
  approvalDecisionBodySchema,
  sessionApprovals,
} from '@agentstep/protocol';
import {
  type ApprovalTokenStore,
  type Clock,
  decideApproval,
  type EventLog,
  type TaskTokens,
  type Toolset,
} from '@agentstep/runtime';

/**
 * How a test decides the calls of one tool that wait for approval: approve them all, deny them all,
 * or decide each from its arguments with the API's decision body: `{ decision: 'approve', args? }`
 * (`args`: what the tool runs with instead) or `{ decision: 'deny', reason? }` (the model reads
 * the reason).
 */
export type RunAgentApproval =
  | 'approve'
  | 'deny'
  | ((args: Record<string, unknown>) => ApprovalDecisionBody | Promise<ApprovalDecisionBody>);

/** What deciding needs: the run's log and clock, the agent's tools (edited arguments are checked). */
export interface DecidingDeps {
  log: EventLog;
  clock: Clock;
  toolset: Toolset;
  /** Decisions by tool name. */
  approvals: Readonly<Record<string, RunAgentApproval>>;
  /** Hears each decision that could not be made (its call then waits on, until it expires). */
  failed(error: Error): void;
}

/** Decided before its token is kept, a call has no task to wake: AwaitApproval finds the decision. */
const NO_TASK_WAITS: TaskTokens = { sendTaskSuccess: async () => {} };

/** Who decided, as the approval's `approval` event records it. */
const DECIDED_BY = 'runAgent';

/**
 * `tokens`, deciding a call whose tool `approvals` lists as it starts to wait: AwaitApproval keeps
 * its token here, so the decision is logged first, with `decideApproval` as a person's is, and the
 * call goes straight on (ApprovalSettled) as it does when a person decided that fast.
 */
export function decidingApprovalTokens(tokens: ApprovalTokenStore, deps: DecidingDeps): ApprovalTokenStore {
  return {
    get: (session, approval) => tokens.get(session, approval),
    put: async (session, approval, token) => {
      await decide(session, approval, tokens, deps);
      await tokens.put(session, approval, token);
    },
  };
}

async function decide(
  session: string,
  approval: string,
  approvalTokens: ApprovalTokenStore,
  deps: DecidingDeps,
): Promise<void> {
  const events = await deps.log.read(session);
  const record = sessionApprovals(events).find(({ id }) => id === approval);
  const approve =
    record && Object.hasOwn(deps.approvals, record.tool) ? deps.approvals[record.tool] : undefined;
  if (record?.status !== 'requested' || approve === undefined) return;
  try {
    const body = await decisionOf(approve, record);
    await decideApproval(
      { session, approval, by: DECIDED_BY, body, events },
      { log: deps.log, clock: deps.clock, toolset: deps.toolset, approvalTokens, taskTokens: NO_TASK_WAITS },
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.failed(
      new Error(
        `runAgent: approvals.${record.tool} did not decide the call ${JSON.stringify(record.args)}: ${reason}`,
        { cause: error },
      ),
    );
  }
}

async function decisionOf(approval: RunAgentApproval, record: ApprovalRecord): Promise<ApprovalDecisionBody> {
  if (typeof approval !== 'function') return { decision: approval };
  const decided: unknown = await approval(structuredClone(record.args));
  const parsed = approvalDecisionBodySchema.safeParse(decided);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(({ path, message }) =>
    path.length > 0 ? `${path.join('.')}: ${message}` : message,
  );
  throw new Error(
    `it returned ${JSON.stringify(decided)} (${problems.join('; ')}); return { decision: 'approve', args? } or { decision: 'deny', reason? }.`,
  );
}
