import { type ApprovalDecisionBody, pendingApprovals, type StoredEvent } from '@agentstep/protocol';
import { cancelTurn, createToolset, decideApproval, demoTools, systemClock } from '@agentstep/runtime';
import { readUntil } from '@agentstep/runtime/testing';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, canonical, chaosSeeds, localAgent, resultItems } from '../support/harness.js';

/** One batch of three calls: `sleep` runs freely, both `echo` calls wait for approval. */
const SCRIPT = [
  batch(['sleep', { ms: 0, value: 'free' }], ['echo', { text: 'one' }], ['echo', { text: 'two' }]),
  'Done.<end>',
];

type Agent = Awaited<ReturnType<typeof localAgent>>;

/** The session's log once both approvals are requested: the model step that made the calls logged them. */
function bothRequested(agent: Agent, session: string) {
  return readUntil(
    () => agent.stores.log.read(session),
    (events) => pendingApprovals(events).length === 2,
  );
}

/** The outcome stored for the call at `position` of the turn's first batch, if any. */
function outcomeOf(agent: Agent, { session, turn }: { session: string; turn: string }, position: number) {
  return agent.stores.outcomes.get({ session, batch: `${turn}.1`, position });
}

/**
 * Once the free call has finished and both calls that need approval wait on their task tokens:
 * the batch runs, and only a decision (or a cancel) can move it on.
 */
async function bothCallsWait(agent: Agent, ref: { session: string; turn: string }) {
  await bothRequested(agent, ref.session);
  await readUntil(
    () => outcomeOf(agent, ref, 0),
    (outcome) => outcome !== undefined,
  );
  await readUntil(
    async () => agent.engine.taskTokens.waiting,
    (waiting) => waiting === 2,
  );
}

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
  await bothRequested(agent, session);
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
    const started = await agent.start('go');
    const { session, turn, run } = started;
    // The free call finishes while both approvals still wait: nobody has decided yet.
    await bothCallsWait(agent, started);
    expect(await outcomeOf(agent, started, 0)).toMatchObject({ status: 'success', content: 'free' });
    expect([await outcomeOf(agent, started, 1), await outcomeOf(agent, started, 2)]).toEqual([
      undefined,
      undefined,
    ]);
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
  });

  describe('C3 chaos: at P = 0.5 each seed gives the log the scenario gives without chaos', () => {
    let reference: ReturnType<typeof approveAndDeny> | undefined;
    const referenceRun = () =>
      (reference ??= localAgent({ script: SCRIPT, approve: ['echo'] }).then(approveAndDeny));

    it('without chaos, the scenario ends its turn', async () => {
      expect((await referenceRun()).output.status).toBe('done');
    });

    it.each(chaosSeeds(6))('seed %i on %s', async (seed, storage) => {
      const chaos = { probability: 0.5, seed };
      const agent = await localAgent({ script: SCRIPT, approve: ['echo'], chaos, storage });
      const { events, output } = await approveAndDeny(agent);
      expect(output.status).toBe('done');
      expect(canonical(events)).toEqual(canonical((await referenceRun()).events));
    });
  });

  it('a cancel while two calls wait ends the turn cancelled at once: both calls fail, no token waits', async () => {
    const agent = await localAgent({ script: SCRIPT, approve: ['echo'] });
    const started = await agent.start('go');
    const { session, turn, run } = started;
    await bothCallsWait(agent, started);
    // The turn must end by itself, however long that takes: its execution is never stopped.
    const starter = {
      start: async () => '',
      stop: async () => expect.unreachable('the cancelled turn did not end by itself'),
    };
    const wake = { ...agent.stores, taskTokens: agent.engine.taskTokens };
    const graceMs = Number.POSITIVE_INFINITY;
    await cancelTurn(session, { ...agent.stores, clock: systemClock, starter, wake, graceMs });
    // It ended by itself: the woken calls failed, the loop saw the cancel.
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
    // One `cancelled` event, after the batch's result, right before the turn's end.
    const types = events.map(({ event }) => event.type);
    expect(types.filter((type) => type === 'cancelled')).toHaveLength(1);
    expect(types.slice(-3)).toEqual(['result', 'cancelled', 'turn_end']);
    expect(agent.engine.taskTokens.waiting).toBe(0);
  });
});
