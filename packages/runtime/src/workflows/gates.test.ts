import { ERROR_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { awaitGate, decideGate, type GateDecision } from './gates.js';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const HAIKU = `
NAME poem
INPUT topic DEFAULT "autumn"
GOAL haiku "Write a haiku about $topic." SUPERVISED HUMAN
GOAL title "Title the haiku."
RUN write USING haiku, title
`;

/** A run waiting at the haiku's first gate, its task token kept by AwaitGate. */
async function waitingRun() {
  const flow = workflowTestRun(HAIKU, {
    haiku: ['Leaves fall, many leaves.<end>', 'Leaves fall.<end>'],
    title: ['Fall.<end>'],
  });
  await flow.start();
  const state = await flow.settle();
  const gate = state.gate ?? expect.unreachable('the run waits at a gate');
  expect(await awaitGate({ run: flow.run, gate, token: 'token-1' }, flow.deps)).toEqual({ waiting: gate });
  const decide = (decision: Omit<GateDecision, 'run' | 'gate'>) =>
    decideGate({ run: flow.run, gate, ...decision }, flow.deps);
  return { flow, state, gate, decide };
}

describe('human gates of SUPERVISED HUMAN goals', () => {
  it('wait for a person after SUPERVISE, whatever its verdict, with the output to approve', async () => {
    const { flow, state } = await waitingRun();
    expect(state).toEqual({ run: flow.run, next: 'gate', gate: '0.0.0' });
    expect((await flow.runs()).map(({ phase }) => phase)).toEqual([
      'commit',
      'execute',
      'assess',
      'supervise',
    ]);
    const gates = await flow.records('gate');
    expect(gates.map(({ record, content }) => [record.status, content])).toEqual([
      ['waiting', 'Leaves fall, many leaves.'],
    ]);
    expect(await flow.records('goal')).toEqual([]);
  });

  it('approve completes the goal, wakes the waiting run, and the run goes on', async () => {
    const { flow, decide } = await waitingRun();
    expect(await decide({ decision: 'approve', by: 'ann' })).toBe('approved');
    expect(flow.taskTokens.sent).toEqual([{ token: 'token-1', output: { approval: '0.0.0' } }]);
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.goal, content])).toEqual([
      ['haiku', 'Leaves fall, many leaves.'],
      ['title', 'Fall.'],
    ]);
  });

  it('correct runs the goal again with <correction source="human">, then waits again', async () => {
    const { flow, decide } = await waitingRun();
    expect(await decide({ decision: 'correct', text: 'Use fewer words.', by: 'ann' })).toBe('corrected');
    expect(await flow.settle()).toEqual({ run: flow.run, next: 'gate', gate: '0.0.1' });
    const rerun = (await flow.runs()).find(({ attempt, phase }) => attempt === 1 && phase === 'execute');
    expect(rerun?.message).toBe(`<workflow name="poem">

<current-goal id="haiku">
Write a haiku about autumn.
</current-goal>

<correction source="human">
Use fewer words.
</correction>

</workflow>`);
    await decideGate({ run: flow.run, gate: '0.0.1', decision: 'approve' }, flow.deps);
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const haiku = (await flow.records('goal')).filter(({ record }) => record.goal === 'haiku');
    expect(haiku.map(({ record, content }) => [record.attempt, content])).toEqual([[1, 'Leaves fall.']]);
  });

  it('abort ends the run aborted, naming who stopped it', async () => {
    const { flow, decide } = await waitingRun();
    expect(await decide({ decision: 'abort', by: 'ann' })).toBe('aborted');
    expect(await flow.settle()).toEqual({
      run: flow.run,
      next: 'aborted',
      message: 'Aborted at goal haiku by ann.',
    });
    expect((await flow.runs()).map(({ goal }) => goal)).not.toContain('title');
  });

  it('expire when AwaitGate times out: the goal fails, so the run fails with GateExpired', async () => {
    const { flow, state, decide } = await waitingRun();
    const timedOut = { ...state, caught: { Error: 'States.Timeout' } };
    expect(await flow.advance(timedOut)).toEqual({
      run: flow.run,
      next: 'failed',
      error: 'GateExpired',
      message: 'Nobody answered the human gate of goal haiku in time.',
    });
    await expect(decide({ decision: 'approve' })).rejects.toMatchObject({ name: ERROR_NAMES.alreadyDecided });
  });

  it('answer once: a second decision is refused and changes nothing', async () => {
    const { flow, decide } = await waitingRun();
    await decide({ decision: 'approve' });
    const before = await flow.records('gate');
    await expect(decide({ decision: 'abort' })).rejects.toMatchObject({ name: ERROR_NAMES.alreadyDecided });
    expect(await flow.records('gate')).toEqual(before);
  });
});
