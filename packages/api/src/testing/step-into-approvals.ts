import { awaitApproval, invokeTool, modelStep, ScriptedModel, startTurn } from '@agentstep/runtime';
import type { ApiDeps } from '../api-deps.js';

/** A call as the model writes it: the tool's name and its arguments. */
export type ScriptedCall = readonly [tool: string, args: Record<string, unknown>];

/**
 * Takes the running turn `turn` of `session` (the stored id) through one model step that makes
 * `calls` in one batch, each waiting for approval, as the state machine would: StartTurn,
 * ModelStep with those tools needing approval, then AwaitApproval for each call, whose task token
 * is `token-<position>`. With `approve`, only calls of those tools wait; the others run at once
 * (InvokeTool), their outcomes stored while the batch waits. Returns the step's batch and its
 * approvals' ids, in call order.
 */
export async function stepIntoApprovals(
  deps: ApiDeps,
  { session, turn }: { session: string; turn: string },
  calls: readonly ScriptedCall[],
  { approve = calls.map(([tool]) => tool) }: { approve?: readonly string[] } = {},
): Promise<{ batch: string; approvals: string[] }> {
  const batch = calls.map(([name, args]) => ({ name, args }));
  const model = new ScriptedModel([`<execute>${JSON.stringify(batch)}</execute>`]);
  const step = await modelStep(await startTurn({ session, turn }, deps), {
    ...deps,
    model,
    tools: deps.toolset.descriptions,
    targetOf: () => 'tools',
    approvals: { toolset: deps.toolset, tools: [...approve] },
  });
  const approvals: string[] = [];
  for (const call of step.calls) {
    const item = { ...call, session, turn, batch: step.batch };
    if (!call.approval) {
      if (approve.includes(calls[call.position]?.[0] ?? ''))
        throw new Error(`Call ${call.position} of ${step.batch} asks for no approval.`);
      await invokeTool(item, deps);
      continue;
    }
    await awaitApproval({ ...item, approval: call.approval, token: `token-${call.position}` }, deps);
    approvals.push(call.approval);
  }
  return { batch: step.batch, approvals };
}
