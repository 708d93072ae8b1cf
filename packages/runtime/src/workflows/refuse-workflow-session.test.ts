import { ERROR_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { beginTurn } from '../session/begin-turn.js';
import { cancelTurn } from '../session/cancel-turn.js';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const AGENTFILE = `NAME pair
GOAL first "Say one."
GOAL second "Say two."
RUN go USING first, second
`;

const starter = { start: async () => 'execution', stop: async () => {} };

/** Run `wf-test` with its first goal's turn submitted in `wf-test.1` and not finished yet. */
async function runningGoal() {
  const flow = workflowTestRun(AGENTFILE, { first: ['One.<end>'], second: ['Two.<end>'] });
  await flow.start();
  const state = await flow.advance();
  expect(state.goals?.map(({ session }) => session)).toEqual(['wf-test.1']);
  return { flow, goals: state.goals ?? [] };
}

describe('refuseWorkflowSession', () => {
  it.each([
    ['the run’s own session', 'wf-test'],
    ['a goal session it runs', 'wf-test.1'],
    ['a goal session still to come', 'wf-test.7'],
  ])('makes beginTurn refuse %s with WorkflowSession, writing nothing', async (_case, session) => {
    const { flow } = await runningGoal();
    const before = await flow.deps.log.read(session);
    await expect(beginTurn({ session, prompt: 'Hi' }, { ...flow.deps, starter })).rejects.toMatchObject({
      name: ERROR_NAMES.workflowSession,
      session,
      run: 'wf-test',
    });
    expect(await flow.deps.log.read(session)).toEqual(before);
  });

  it('makes cancelTurn refuse the run and its goal session; the goal turn and the run go on to the end', async () => {
    const { flow, goals } = await runningGoal();
    for (const session of ['wf-test', 'wf-test.1'])
      await expect(cancelTurn(session, { ...flow.deps, starter })).rejects.toMatchObject({
        name: ERROR_NAMES.workflowSession,
      });
    expect(await flow.deps.log.holder('wf-test.1')).toMatchObject({ turn: 't-1', cancelRequested: false });
    expect(await flow.deps.log.holder('wf-test')).toMatchObject({ turn: 'wf-test', cancelRequested: false });
    for (const goal of goals) await flow.finish(goal);
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const kinds = (await flow.deps.log.read('wf-test')).map(({ event }) => event.type);
    expect(kinds).not.toContain('turn_end');
  });

  it('lets plain sessions, numbered sessions of no run and sub-agent sessions of goal sessions through', async () => {
    const { flow } = await runningGoal();
    for (const session of ['s-1', 'other.1', 'wf-test.1--sub-123456789012']) {
      const begun = await beginTurn({ session, prompt: 'Hi' }, { ...flow.deps, starter });
      expect(begun.session).toBe(session);
    }
  });
});
