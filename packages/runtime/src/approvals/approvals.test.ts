import { approvalWaitMs, type LoopState, type ModelStepOutput, pendingApprovals } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  AlreadyDecidedError,
  ApprovalNotFoundError,
  ApprovalRequiredError,
  ApprovalSettledError,
  SessionBusyError,
} from '../errors.js';
import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { inMemoryStores } from '../in-memory-stores.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { cancelTurn } from '../session/cancel-turn.js';
import { budgetLimit } from '../steps/budget-limit.js';
import { invokeTool } from '../steps/invoke-tool.js';
import { modelStep } from '../steps/model-step.js';
import { startTurn } from '../steps/start-turn.js';
import { submitTurn } from '../steps/submit-turn.js';
import { defineTool } from '../tools/define-tool.js';
import { demoTools } from '../tools/demo-tools.js';
import { createToolset } from '../tools/toolset.js';
import { InMemoryUsageLedger } from '../usage/in-memory-usage-ledger.js';
import { awaitApproval } from './await-approval.js';
import { ApprovalArgsInvalidError, decideApproval } from './decide-approval.js';
import { expireApproval } from './expire-approval.js';
import type { TaskTokens } from './task-tokens.js';

const written: string[] = [];
const write = defineTool({
  name: 'write',
  description: 'Writes a line.',
  input: z.object({ line: z.string().max(10) }),
  approval: true,
  handler: ({ line }) => {
    written.push(line);
    return `wrote ${line}`;
  },
});
const toolset = createToolset([...demoTools, write]);

/** Task tokens that record what they were sent, as Step Functions would receive it. */
class RecordingTaskTokens implements TaskTokens {
  readonly sent: Array<{ token: string; output: unknown }> = [];
  async sendTaskSuccess(token: string, output: unknown): Promise<void> {
    this.sent.push({ token, output });
  }
}

const BATCH =
  '<execute>[{"name": "echo", "args": {"text": "free"}}, {"name": "write", "args": {"line": "one"}}, {"name": "write", "args": {"line": "two"}}, {"name": "write", "args": {"line": "far too long"}}]</execute>';

let now = 1_700_000_000_000;
const clock = { now: () => now };

function setup() {
  const log = new InMemoryEventLog({ clock });
  const stores = { ...inMemoryStores(), log, usage: new InMemoryUsageLedger(log) };
  const taskTokens = new RecordingTaskTokens();
  const deps = {
    ...stores,
    clock,
    taskTokens,
    toolset,
    model: new ScriptedModel([BATCH, 'Done.']),
    tools: toolset.descriptions,
    targetOf: () => 'tools',
    approvals: { toolset, tools: ['echo_never'], timeoutMs: 60_000 },
  };
  return deps;
}

async function firstStep(deps: ReturnType<typeof setup>): Promise<ModelStepOutput> {
  await submitTurn({ session: 's1', turn: 't1', prompt: 'go' }, deps);
  const state: LoopState = await startTurn({ session: 's1', turn: 't1' }, deps);
  return modelStep(state, deps);
}

function item(step: ModelStepOutput, position: number) {
  const call = step.calls[position] ?? expect.unreachable(`no call ${position}`);
  return { ...call, session: 's1', turn: step.turn, batch: step.batch };
}

describe('approvals', () => {
  it('asks once per valid call of an approval tool, logged with the calls, in call order', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    expect(step.calls.map((call) => call.approval)).toEqual([null, 't1.1.1', 't1.1.2', null]);
    const pending = pendingApprovals(await deps.log.read('s1'));
    expect(pending.map(({ id, tool, args, position }) => ({ id, tool, args, position }))).toEqual([
      { id: 't1.1.1', tool: 'write', args: { line: 'one' }, position: 1 },
      { id: 't1.1.2', tool: 'write', args: { line: 'two' }, position: 2 },
    ]);
    expect(pending[0]?.expiresAt).toBe(now + 60_000);
  });

  it('runs an approved call with the edited arguments and fails a denied one with its reason', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    await awaitApproval({ ...item(step, 1), approval: 't1.1.1', token: 'token-1' }, deps);
    const decided = await decideApproval(
      { session: 's1', approval: 't1.1.1', by: 'ann', body: { decision: 'approve', args: { line: 'uno' } } },
      deps,
    );
    expect(decided).toEqual({ id: 't1.1.1', decision: 'approve' });
    expect(deps.taskTokens.sent).toEqual([{ token: 'token-1', output: { approval: 't1.1.1' } }]);
    await decideApproval(
      { session: 's1', approval: 't1.1.2', body: { decision: 'deny', reason: 'not today' } },
      deps,
    );
    await invokeTool(item(step, 1), deps);
    await invokeTool(item(step, 2), deps);
    await invokeTool(item(step, 3), deps);
    const outcomes = await deps.outcomes.list('s1', step.batch, 4);
    expect(outcomes.slice(1).map((outcome) => [outcome?.status, outcome?.content])).toEqual([
      ['success', 'wrote uno'],
      ['failure', 'denied: not today'],
      ['failure', expect.stringContaining('line')],
    ]);
    const approved = (await deps.log.read('s1')).find(
      ({ event }) => event.type === 'approval' && event.payload.status === 'approved',
    );
    expect(approved?.event).toMatchObject({ payload: { id: 't1.1.1', by: 'ann', args: { line: 'uno' } } });
  });

  it('runs nothing while an approval is unsettled: ApprovalRequired sends the call to wait', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    const writes = written.length;
    await expect(invokeTool(item(step, 1), deps)).rejects.toBeInstanceOf(ApprovalRequiredError);
    expect(await deps.outcomes.get({ session: 's1', batch: step.batch, position: 1 })).toBeUndefined();
    expect(written).toHaveLength(writes);
  });

  it('a decision whose wake failed wakes its call when the client retries, though it hears AlreadyDecided', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    await awaitApproval({ ...item(step, 1), approval: 't1.1.1', token: 'token-1' }, deps);
    const flaky = {
      ...deps,
      taskTokens: { sendTaskSuccess: async () => Promise.reject(new Error('Throttled')) },
    };
    const body = { decision: 'approve' as const };
    await expect(decideApproval({ session: 's1', approval: 't1.1.1', body }, flaky)).rejects.toThrow(
      'Throttled',
    );
    await expect(decideApproval({ session: 's1', approval: 't1.1.1', body }, deps)).rejects.toBeInstanceOf(
      AlreadyDecidedError,
    );
    expect(deps.taskTokens.sent).toEqual([{ token: 'token-1', output: { approval: 't1.1.1' } }]);
  });

  it('decides once: a second decision, an unknown id and bad edited arguments are refused', async () => {
    const deps = setup();
    await firstStep(deps);
    const decide = (approval: string, body: Parameters<typeof decideApproval>[0]['body']) =>
      decideApproval({ session: 's1', approval, body }, deps);
    await expect(decide('t1.1.1', { decision: 'approve', args: { line: 12 } })).rejects.toBeInstanceOf(
      ApprovalArgsInvalidError,
    );
    expect(pendingApprovals(await deps.log.read('s1'))).toHaveLength(2);
    await decide('t1.1.1', { decision: 'deny' });
    await expect(decide('t1.1.1', { decision: 'approve' })).rejects.toBeInstanceOf(AlreadyDecidedError);
    await expect(decide('t1.1.9', { decision: 'approve' })).rejects.toBeInstanceOf(ApprovalNotFoundError);
  });

  it('a wait that starts after the decision does not wait; a timed-out one fails unless decided first', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    await decideApproval({ session: 's1', approval: 't1.1.1', body: { decision: 'approve' } }, deps);
    await expect(
      awaitApproval({ ...item(step, 1), approval: 't1.1.1', token: 'late' }, deps),
    ).rejects.toBeInstanceOf(ApprovalSettledError);
    expect(await expireApproval({ ...item(step, 1), approval: 't1.1.1' }, deps)).toEqual({ expired: false });
    expect(await expireApproval({ ...item(step, 2), approval: 't1.1.2' }, deps)).toEqual({ expired: true });
    await invokeTool(item(step, 2), deps);
    expect((await deps.outcomes.list('s1', step.batch, 4))[2]?.content).toBe('approval timed out');
  });

  it('a cancel settles waiting approvals as cancelled and wakes their tasks at once', async () => {
    const deps = setup();
    const step = await firstStep(deps);
    await awaitApproval({ ...item(step, 1), approval: 't1.1.1', token: 'token-1' }, deps);
    const starter = { start: async () => 'x', stop: async () => {} };
    const cancelling = cancelTurn('s1', { ...deps, starter, graceMs: 0, wake: deps });
    await cancelling;
    expect(deps.taskTokens.sent.map(({ token }) => token)).toEqual(['token-1']);
    const statuses = (await deps.log.read('s1')).flatMap(({ event }) =>
      event.type === 'approval' ? [`${event.payload.id} ${event.payload.status}`] : [],
    );
    expect(statuses).toEqual([
      't1.1.1 requested',
      't1.1.2 requested',
      't1.1.1 cancelled',
      't1.1.2 cancelled',
    ]);
  });

  it('holds the session past its lease while calls wait, until the batch has its result', async () => {
    const deps = setup();
    await firstStep(deps);
    now += 31 * 60 * 1000; // past the 30-minute lease, inside the hold (two 1-minute waits + a lease)
    await expect(deps.log.acquireTurn('s1', 't2')).rejects.toBeInstanceOf(SessionBusyError);
    now += 2 * 60 * 1000; // past the hold
    await expect(deps.log.acquireTurn('s1', 't2')).resolves.toEqual({ previous: 't1' });
  });

  it('leaves the time spent waiting for people out of the turn wall clock', async () => {
    const deps = setup();
    const start = now;
    await firstStep(deps);
    now += 10_000;
    await decideApproval({ session: 's1', approval: 't1.1.1', body: { decision: 'approve' } }, deps);
    now += 5_000;
    const log = await deps.log.read('s1');
    // Both waited from the step; the second still waits: their union is the whole 15 s.
    expect(approvalWaitMs(log, 't1', now)).toBe(15_000);
    expect(approvalWaitMs(log, 'other-turn', now)).toBe(0);
    expect(now - start).toBe(15_000);
    const state = { ...(await startTurn({ session: 's1', turn: 't1' }, deps)), startedAt: start };
    expect(await budgetLimit({ ...state, budget: { maxWallSeconds: 1 } }, log, deps)).toBeUndefined();
    await decideApproval({ session: 's1', approval: 't1.1.2', body: { decision: 'deny' } }, deps);
    now += 2_000;
    const settled = await deps.log.read('s1');
    expect(await budgetLimit({ ...state, budget: { maxWallSeconds: 1 } }, settled, deps)).toMatch(
      /time budget is spent/,
    );
  });
});
