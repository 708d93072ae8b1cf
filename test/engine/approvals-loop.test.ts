import { setTimeout as sleep } from 'node:timers/promises';
import { type ApprovalDecisionBody, pendingApprovals, type StoredEvent } from '@agentstep/protocol';
import { cancelTurn, createToolset, decideApproval, demoTools, systemClock } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, canonical, localAgent, resultItems } from '../support/harness.js';

/** One batch of three calls: `sleep` runs freely, both `echo` calls wait for approval. */
const SCRIPT = [
  batch(['sleep', { ms: 0, value: 'free' }], ['echo', { text: 'one' }], ['echo', { text: 'two' }]),
  'Done.<end>',
];

type Agent = Awaited<ReturnType<typeof localAgent>>;

/** The session's log once `until` holds for it. */
async function logOnce(agent: Agent, session: string, until: (events: StoredEvent[]) => boolean) {
  for (;;) {
    const events = await agent.stores.log.read(session);
    if (until(events)) return events;
    await sleep(20);
  }
}

const bothWait = (events: StoredEvent[]) => pendingApprovals(events).length === 2;

/** A person's decision, through the same use case the API and the CLI run. */
function decide(agent: Agent, session: string, approval: string, body: ApprovalDecisionBody) {
  const deps = {
    ...agent.stores,
    clock: systemClock,
    toolset: createToolset(demoTools),
    taskTokens: agent.engine.taskTokens,
  };
  return decideApproval({ session, approval, by: 'tester', body }, deps);
}

/** Runs the scenario: waits for both approvals, approves the first with edited args, denies the second. */
async function approveAndDeny(agent: Agent) {
  const { session, turn, run } = await agent.start('go');
  await logOnce(agent, session, bothWait);
  await decide(agent, session, `${turn}.1.1`, { decision: 'approve', args: { text: 'uno' } });
  await decide(agent, session, `${turn}.1.2`, { decision: 'deny', reason: 'not today' });
  const { output } = await run;
  return { output, session, turn, events: await agent.stores.log.read(session) };
}

const statuses = (events: StoredEvent[]) =>
  events.flatMap(({ event }) =>
    event.type === 'approval' ? [`#${event.payload.index} ${event.payload.status}`] : [],
  );

describe.skipIf(dynamoEndpoint === '')('approvals on the synthesized definition (DynamoDB Local)', () => {
  it('the free call runs while two wait; edited args run, a denial fails with its reason, results in call order', async () => {
    const agent = await localAgent({ script: SCRIPT, approve: ['echo'] });
    const { session, turn, run } = await agent.start('go');
    await logOnce(agent, session, bothWait);
    const outcome = (position: number) =>
      agent.stores.outcomes.get({ session, batch: `${turn}.1`, position });
    // The free call finishes while both approvals still wait: nobody has decided yet.
    for (let tries = 0; (await outcome(0)) === undefined; tries++) {
      if (tries > 500) expect.unreachable('the free call never finished');
      await sleep(10);
    }
    expect(await outcome(0)).toMatchObject({ status: 'success', content: 'free' });
    expect([await outcome(1), await outcome(2)]).toEqual([undefined, undefined]);
    expect(agent.engine.taskTokens.waiting).toBe(2);
    await decide(agent, session, `${turn}.1.1`, { decision: 'approve', args: { text: 'uno' } });
    await decide(agent, session, `${turn}.1.2`, { decision: 'deny', reason: 'not today' });
    expect((await run).output.status).toBe('done');
    const events = await agent.stores.log.read(session);
    expect(resultItems(events, `${turn}.1`)).toEqual([
      { tool: 'sleep', status: 'success', content: 'free' },
      { tool: 'echo', status: 'success', content: 'uno' },
      { tool: 'echo', status: 'failure', content: 'denied: not today' },
    ]);
    expect(statuses(events)).toEqual(['#1 requested', '#2 requested', '#1 approved', '#2 denied']);
    expect(agent.engine.taskTokens.waiting).toBe(0);
    // The model never sees approvals: its second step got the three results and nothing else.
    expect(JSON.stringify(agent.model.calls[1]?.messages)).not.toContain('approval');
  }, 60_000);

  it('C3 chaos: the scenario at P = 0.5 gives the log it gives without chaos (6 seeds)', async () => {
    const reference = await approveAndDeny(await localAgent({ script: SCRIPT, approve: ['echo'] }));
    expect(reference.output.status).toBe('done');
    for (let seed = 1; seed <= 6; seed++) {
      const agent = await localAgent({
        script: SCRIPT,
        approve: ['echo'],
        chaos: { probability: 0.5, seed },
      });
      const { events, output } = await approveAndDeny(agent);
      expect(output.status).toBe('done');
      expect(canonical(events)).toEqual(canonical(reference.events));
    }
  }, 120_000);

  it('a cancel while two calls wait ends the turn cancelled at once: both calls fail, no token waits', async () => {
    const agent = await localAgent({ script: SCRIPT, approve: ['echo'] });
    const { session, turn, run } = await agent.start('go');
    await logOnce(agent, session, bothWait);
    const starter = {
      start: async () => '',
      stop: async (ref: { session: string; turn: string }) => {
        agent.engine.stopTurn(ref);
      },
    };
    const wake = { ...agent.stores, taskTokens: agent.engine.taskTokens };
    await cancelTurn(session, { ...agent.stores, clock: systemClock, starter, wake, graceMs: 5_000 });
    // It ended by itself (the execution was never stopped): the woken calls failed, the loop saw the cancel.
    expect((await run).output.status).toBe('cancelled');
    const events = await agent.stores.log.read(session);
    expect(resultItems(events, `${turn}.1`)).toEqual([
      { tool: 'sleep', status: 'success', content: 'free' },
      { tool: 'echo', status: 'failure', content: 'cancelled' },
      { tool: 'echo', status: 'failure', content: 'cancelled' },
    ]);
    // Each approval is settled once, as cancelled. Which comes first is a race the log records as
    // it happened: a call still entering its wait sees the cancel and settles itself.
    const [first, second, ...settled] = statuses(events);
    expect([first, second]).toEqual(['#1 requested', '#2 requested']);
    expect(settled.sort()).toEqual(['#1 cancelled', '#2 cancelled']);
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
    expect(agent.engine.taskTokens.waiting).toBe(0);
  }, 60_000);
});
