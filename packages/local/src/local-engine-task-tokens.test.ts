import { demoTools, inMemoryStores, ScriptedModel, systemClock } from '@agentstep/runtime';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestAgent } from './load-test-agent.js';
import { LocalEngine, type LocalEngineOptions } from './local-engine.js';
import type { SynthesizedAgent } from './synthesize-agent.js';
import { InMemoryTaskTokenCompletions } from './task-tokens/in-memory-task-token-completions.js';
import { LocalTaskTokens } from './task-tokens/local-task-tokens.js';

const WAIT_FOR_TOKEN = 'arn:aws:states:::lambda:invoke.waitForTaskToken';

/**
 * A machine whose AwaitApproval task hands `payload` to the `approver` function and waits for its
 * token, its result in `$.decision`; a `Catch` of `task` may go to `Caught`.
 */
function awaiting(
  task: Record<string, unknown> = {},
  payload: Record<string, unknown> = { 'session.$': '$.session', 'token.$': '$$.Task.Token' },
  machine: Record<string, unknown> = {},
): StateMachineDefinition {
  return {
    StartAt: 'AwaitApproval',
    States: {
      AwaitApproval: {
        Type: 'Task',
        Resource: WAIT_FOR_TOKEN,
        Parameters: { FunctionName: 'approver', Payload: payload },
        ResultPath: '$.decision',
        Next: 'Approved',
        ...task,
      },
      Approved: { Type: 'Pass', End: true },
      // Only a reachable state is a valid one.
      ...(task.Catch === undefined ? {} : { Caught: { Type: 'Pass', End: true } }),
    },
    ...machine,
  } as StateMachineDefinition;
}

const catching = (error: string) => ({
  Catch: [{ ErrorEquals: [error], ResultPath: '$.failure', Next: 'Caught' }],
});

interface ApprovalRequest {
  token: string;
  [field: string]: unknown;
}

/** The `approver` function: records each request, then does `act` with it. */
function approverFunction(act: (request: ApprovalRequest) => Promise<unknown> = async () => 'ignored') {
  const requests: ApprovalRequest[] = [];
  let announce = () => {};
  return {
    handler: async (event: unknown) => {
      requests.push(event as ApprovalRequest);
      announce();
      return act(event as ApprovalRequest);
    },
    /** The requests received, once there are `count` of them. */
    received: async (count = 1): Promise<ApprovalRequest[]> => {
      while (requests.length < count) await new Promise<void>((resolve) => (announce = resolve));
      return requests;
    },
  };
}

/** The first request's token, once the function received it. */
async function firstToken(approver: ReturnType<typeof approverFunction>): Promise<string> {
  const [request] = await approver.received();
  return request?.token ?? '';
}

/** How many timers keep the process alive (unref'd ones do not count). */
const liveTimers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

let agent: SynthesizedAgent;
beforeAll(async () => {
  agent = await loadTestAgent();
});

function engineWith(options: Partial<LocalEngineOptions>, approver = approverFunction()): LocalEngine {
  return new LocalEngine({
    agent,
    deps: { ...inMemoryStores(), model: new ScriptedModel([]), clock: systemClock, tools: demoTools },
    functions: { approver: approver.handler },
    ...options,
  });
}

describe('LocalEngine on .waitForTaskToken', { timeout: 30_000 }, () => {
  it('gives the task the output sent to its token as its result, and forgets the token', async () => {
    const approver = approverFunction();
    const engine = engineWith({ stateMachines: { Approval: awaiting() } }, approver);
    const run = engine.execute('Approval', { session: 's' });
    const token = await firstToken(approver);
    expect(token).toMatch(/^local:[0-9a-f-]{36}$/);
    expect(engine.taskTokens.waiting).toBe(1);
    await engine.taskTokens.sendTaskSuccess(token, { approved: true });
    expect((await run).output).toEqual({ session: 's', decision: { approved: true } });
    expect(engine.taskTokens.waiting).toBe(0);
    await expect(engine.taskTokens.sendTaskSuccess(token, {})).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('stops every execution it runs on stopExecutions, as the end of its process would, the wait with it', async () => {
    const approver = approverFunction();
    const engine = engineWith({ stateMachines: { Approval: awaiting() } }, approver);
    const run = engine.execute('Approval', { session: 's' });
    await firstToken(approver);
    engine.stopExecutions();
    await expect(run).rejects.toThrow();
    expect(engine.taskTokens.waiting).toBe(0);
  });

  it('puts the token wherever $$.Task.Token appears in the payload, nested or formatted', async () => {
    const approver = approverFunction();
    const payload = {
      'session.$': '$.session',
      request: { 'token.$': '$$.Task.Token', copies: [{ 'token.$': '$$.Task.Token' }] },
      'link.$': "States.Format('approve?token={}', $$.Task.Token)",
    };
    const engine = engineWith({ stateMachines: { Approval: awaiting({}, payload) } }, approver);
    const run = engine.execute('Approval', { session: 's' });
    const [request] = await approver.received();
    const { token } = (request?.request ?? {}) as { token: string };
    expect(request).toEqual({
      session: 's',
      request: { token, copies: [{ token }] },
      link: `approve?token=${token}`,
    });
    expect(token).toMatch(/^local:/);
    await engine.taskTokens.sendTaskSuccess(token, 'ok');
    expect((await run).output).toMatchObject({ decision: 'ok' });
  });

  it('fails the task with the error and cause sent, which a Catch on that name handles', async () => {
    const approver = approverFunction();
    const engine = engineWith({ stateMachines: { Approval: awaiting(catching('Denied')) } }, approver);
    const run = engine.execute('Approval', { session: 's' });
    await engine.taskTokens.sendTaskFailure(await firstToken(approver), 'Denied', 'not today');
    expect((await run).output).toEqual({ session: 's', failure: { Error: 'Denied', Cause: 'not today' } });
  });

  it('ends the wait with States.Timeout after TimeoutSeconds, then refuses the token', async () => {
    const approver = approverFunction();
    // States.TaskFailed matches every error but a real States.Timeout: the engine's timeout ended the task.
    const task = {
      TimeoutSeconds: 1,
      Catch: [
        { ErrorEquals: ['States.TaskFailed'], Next: 'Approved' },
        { ErrorEquals: ['States.Timeout'], ResultPath: '$.failure', Next: 'Caught' },
      ],
    };
    const engine = engineWith({ stateMachines: { Approval: awaiting(task) } }, approver);
    const { output } = await engine.execute('Approval', { session: 's' });
    expect(output).toMatchObject({ failure: { Error: 'States.Timeout' } });
    expect(engine.taskTokens.waiting).toBe(0);
    await expect(engine.taskTokens.sendTaskSuccess(await firstToken(approver), {})).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('counts a completion sent before the function returned', async () => {
    let engine: LocalEngine | undefined;
    const approver = approverFunction(async ({ token }) => {
      await engine?.taskTokens.sendTaskSuccess(token, 'decided at once');
      return 'ignored';
    });
    engine = engineWith({ stateMachines: { Approval: awaiting() } }, approver);
    expect((await engine.execute('Approval', { session: 's' })).output).toMatchObject({
      decision: 'decided at once',
    });
  });

  it("fails the task at once with the function's error, which a Catch on its name handles", async () => {
    const approver = approverFunction(async () => {
      throw Object.assign(new Error('the approvals inbox is down'), { name: 'InboxDown' });
    });
    const engine = engineWith({ stateMachines: { Approval: awaiting(catching('InboxDown')) } }, approver);
    const { output } = await engine.execute('Approval', { session: 's' });
    expect(output).toMatchObject({ failure: { Error: 'InboxDown', Cause: 'the approvals inbox is down' } });
    expect(engine.taskTokens.waiting).toBe(0);
  });

  it('keeps the token when chaos delivers the invocation twice', async () => {
    const approver = approverFunction();
    const engine = engineWith(
      { stateMachines: { Approval: awaiting() }, chaos: { probability: 1, seed: 1 } },
      approver,
    );
    const run = engine.execute('Approval', { session: 's' });
    const [first, second] = await approver.received(2);
    expect(second?.token).toBe(first?.token);
    await engine.taskTokens.sendTaskSuccess(first?.token ?? '', 'once');
    expect((await run).output).toMatchObject({ decision: 'once' });
  });

  it('gives each attempt a fresh token: a retried task waits on its new one only', async () => {
    const approver = approverFunction();
    const task = { Retry: [{ ErrorEquals: ['Flaky'], MaxAttempts: 1 }] };
    const engine = engineWith({ stateMachines: { Approval: awaiting(task) } }, approver);
    const run = engine.execute('Approval', { session: 's' });
    const first = await firstToken(approver);
    await engine.taskTokens.sendTaskFailure(first, 'Flaky');
    const second = (await approver.received(2))[1]?.token ?? '';
    expect(second).not.toBe(first);
    await expect(engine.taskTokens.sendTaskSuccess(first, 'stale')).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
    await engine.taskTokens.sendTaskSuccess(second, 'fresh');
    expect((await run).output).toMatchObject({ decision: 'fresh' });
  });

  it('completes a task waiting in another process through the shared completion store', async () => {
    const approver = approverFunction();
    const store = new InMemoryTaskTokenCompletions();
    const engine = engineWith(
      { stateMachines: { Approval: awaiting() }, taskTokens: new LocalTaskTokens(store) },
      approver,
    );
    const otherProcess = new LocalTaskTokens(store);
    const run = engine.execute('Approval', { session: 's' });
    await otherProcess.sendTaskSuccess(await firstToken(approver), { approvedBy: 'another shell' });
    expect((await run).output).toMatchObject({ decision: { approvedBy: 'another shell' } });
    expect(engine.taskTokens.waiting).toBe(0);
  });
});

describe('LocalEngine forgetting the tokens of an execution that ends', { timeout: 30_000 }, () => {
  it('forgets the tokens of a stopped turn and clears the task timeout timer', async () => {
    const approver = approverFunction();
    const loop = awaiting({ TimeoutSeconds: 86_400 });
    const engine = engineWith({ agent: { ...agent, definition: loop } }, approver);
    const run = engine.runTurn({ session: 's', turn: 't' });
    const token = await firstToken(approver);
    const timersWhileWaiting = liveTimers();
    expect(engine.stopTurn({ session: 's', turn: 't' })).toBe(true);
    await expect(run).rejects.toThrow();
    await new Promise(setImmediate);
    expect(engine.taskTokens.waiting).toBe(0);
    // The engine's timer of the task's day-long timeout no longer keeps the process alive.
    expect(liveTimers()).toBeLessThan(timersWhileWaiting);
    await expect(engine.taskTokens.sendTaskSuccess(token, {})).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('neither invokes nor waits again when the function fails after its turn was stopped', async () => {
    let fail = () => {};
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const approver = approverFunction(async () => {
      await failed;
      throw Object.assign(new Error('the approvals inbox is down'), { name: 'InboxDown' });
    });
    const loop = awaiting({
      TimeoutSeconds: 86_400,
      Retry: [{ ErrorEquals: ['InboxDown'], MaxAttempts: 3 }],
    });
    const engine = engineWith({ agent: { ...agent, definition: loop } }, approver);
    const run = engine.runTurn({ session: 's', turn: 't' });
    await approver.received();
    const timersWhileWaiting = liveTimers();
    engine.stopTurn({ session: 's', turn: 't' });
    await expect(run).rejects.toThrow();
    fail();
    // The engine retries at once (its retry intervals are 0), in promise callbacks only: a retry
    // would have invoked the function again before the event loop turns.
    await new Promise(setImmediate);
    expect((await approver.received()).length).toBe(1);
    expect(engine.taskTokens.waiting).toBe(0);
    expect(liveTimers()).toBeLessThan(timersWhileWaiting);
  });

  it('forgets the tokens of an execution that timed out as a whole', async () => {
    const approver = approverFunction();
    const machine = awaiting({ TimeoutSeconds: 86_400 }, undefined, { TimeoutSeconds: 1 });
    const engine = engineWith({ stateMachines: { Approval: machine } }, approver);
    await expect(engine.execute('Approval', { session: 's' })).rejects.toMatchObject({
      name: 'ExecutionTimeoutError',
    });
    expect(engine.taskTokens.waiting).toBe(0);
    await expect(engine.taskTokens.sendTaskSuccess(await firstToken(approver), {})).rejects.toMatchObject({
      name: 'TaskDoesNotExist',
    });
  });

  it('refuses a .waitForTaskToken task that sets TimeoutSecondsPath', () => {
    const machine = awaiting({ TimeoutSecondsPath: '$.timeout' });
    expect(() => engineWith({ stateMachines: { Approval: machine } })).toThrow(
      'Task AwaitApproval sets TimeoutSecondsPath',
    );
  });
});
