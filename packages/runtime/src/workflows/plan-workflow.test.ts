import { renderGoalDocument } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const STEPS = `
NAME steps
INPUT city DEFAULT "Lisbon"
GOAL plan "Plan a day in $city."
GOAL check "Check the plan."
GOAL unused "Never named in a RUN."
GOAL summary "Summarize."
RUN draft USING check, plan, check
RUN close USING summary
`;

const STEP_ANSWERS = {
  plan: ['Tram & fado.<end>'],
  check: ['Nothing planned yet.<end>', 'Looks fine.<end>'],
  summary: ['A good day.<end>'],
};

describe('planWorkflow: RUN steps', () => {
  it('runs steps in file order and each step’s goals in list order, a goal named twice twice', async () => {
    const flow = workflowTestRun(STEPS, STEP_ANSWERS);
    await flow.start();
    expect(await flow.settle()).toEqual({
      run: flow.run,
      next: 'done',
      message: 'All 4 goal runs completed.',
    });
    const runs = await flow.runs();
    expect(runs.map(({ slot, goal, phase }) => [slot, goal, phase])).toEqual([
      ['0.0', 'check', 'execute'],
      ['0.1', 'plan', 'execute'],
      ['0.2', 'check', 'execute'],
      ['1.0', 'summary', 'execute'],
    ]);
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.slot, record.goal, content])).toEqual([
      ['0.0', 'check', 'Nothing planned yet.'],
      ['0.1', 'plan', 'Tram & fado.'],
      ['0.2', 'check', 'Looks fine.'],
      ['1.0', 'summary', 'A good day.'],
    ]);
  });

  it('never runs a goal that no RUN names', async () => {
    const flow = workflowTestRun(STEPS, STEP_ANSWERS);
    await flow.start();
    await flow.settle();
    expect((await flow.runs()).map(({ goal }) => goal)).not.toContain('unused');
    expect((await flow.records('goal')).map(({ record }) => record.goal)).not.toContain('unused');
  });

  it('gives each run its goal document: the goals completed so far (each at its first place, with its latest output), then the goal', async () => {
    const flow = workflowTestRun(STEPS, STEP_ANSWERS);
    await flow.start();
    await flow.settle();
    const common = { render: 'goal' as const, workflow: { name: 'steps' }, inputs: { city: 'Lisbon' } };
    const check = { id: 'check', description: 'Check the plan.' };
    const expected = [
      renderGoalDocument({ ...common, current: check }),
      renderGoalDocument({
        ...common,
        prior: [{ id: 'check', output: 'Nothing planned yet.' }],
        current: { id: 'plan', description: 'Plan a day in $city.' },
      }),
      renderGoalDocument({
        ...common,
        prior: [
          { id: 'check', output: 'Nothing planned yet.' },
          { id: 'plan', output: 'Tram & fado.' },
        ],
        current: check,
      }),
    ];
    const runs = await flow.runs();
    expect(runs.slice(0, 3).map(({ message }) => message)).toEqual(expected);
    expect(runs[3]?.message).toBe(`<workflow name="steps">

<context>
  <goal id="check">
Looks fine.
  </goal>

  <goal id="plan">
Tram &amp; fado.
  </goal>

</context>

<current-goal id="summary">
Summarize.
</current-goal>

</workflow>`);
  });
});

const LOOP = (within: string) => `
NAME polish
INPUT rounds DEFAULT "3"
GOAL draft "Draft."
GOAL review "Review."
GOAL publish "Publish."
LOOP polishing USING draft, review WITHIN ${within}
RUN out USING publish
`;

describe('planWorkflow: LOOP steps', () => {
  it('stops a LOOP early when an iteration’s outputs equal the previous iteration’s', async () => {
    const flow = workflowTestRun(LOOP('5'), {
      draft: ['D1<end>', 'D2<end>', 'D2<end>', 'never<end>'],
      review: ['R1<end>', 'R2<end>', 'R2<end>', 'never<end>'],
      publish: ['Published.<end>'],
    });
    await flow.start();
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const runs = await flow.runs();
    expect(runs.map(({ slot, goal }) => [slot, goal])).toEqual([
      ['0.1.0', 'draft'],
      ['0.1.1', 'review'],
      ['0.2.0', 'draft'],
      ['0.2.1', 'review'],
      ['0.3.0', 'draft'],
      ['0.3.1', 'review'],
      ['1.0', 'publish'],
    ]);
    expect(runs[2]?.message).toBe(`<workflow name="polish">

<context>
  <iteration n="1">
    <goal id="draft">
D1
    </goal>
    <goal id="review">
R1
    </goal>
  </iteration>

</context>

<current-goal id="draft" loop="polishing" iteration="2">
Draft.
</current-goal>

</workflow>`);
  });

  it.each([
    ['a number', '2'],
    ['an input', '$rounds'],
  ])('stops a LOOP at its WITHIN limit (%s) when iterations keep changing', async (_, within) => {
    const flow = workflowTestRun(LOOP(within), {
      draft: ['D1<end>', 'D2<end>', 'D3<end>'],
      review: ['R1<end>', 'R2<end>', 'R3<end>'],
      publish: ['Published.<end>'],
    });
    await flow.start(within === '2' ? {} : { rounds: '2' });
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const goals = await flow.records('goal');
    expect(goals.map(({ record }) => [record.goal, record.loop ?? null, record.iteration ?? null])).toEqual([
      ['draft', 'polishing', 1],
      ['review', 'polishing', 1],
      ['draft', 'polishing', 2],
      ['review', 'polishing', 2],
      ['publish', null, null],
    ]);
  });

  it.each([
    ['many', 'WITHIN $rounds must be a whole number above 0, but it is "many".'],
    ['0', 'WITHIN $rounds must be a whole number above 0, but it is "0".'],
    ['1.5', 'WITHIN $rounds must be a whole number above 0, but it is "1.5".'],
  ])('fails the run with InvalidWithin when a LOOP’s WITHIN $var is %j', async (rounds, message) => {
    const flow = workflowTestRun(LOOP('$rounds'));
    await flow.start({ rounds });
    expect(await flow.settle()).toEqual({ run: flow.run, next: 'failed', error: 'InvalidWithin', message });
    expect(await flow.runs()).toEqual([]);
  });
});
