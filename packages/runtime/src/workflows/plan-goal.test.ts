import { describe, expect, it } from 'vitest';
import type { GoalScripts } from '../model/goal-scripted-model.js';
import { MAX_REORIENTS } from './plan-goal.js';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const SUPERVISED = `
NAME review
GOAL report "Write the report."
RUN go USING report SUPERVISED
`;

/** A COMMIT answer: confident, no assumptions, unless overridden. */
function commit(overrides: Record<string, unknown> = {}): string {
  const answer = { interpretation: 'as written', approach: 'write', confidence: 'high', assumptions: [] };
  return `${JSON.stringify({ ...answer, ...overrides })}<end>`;
}

/** An ASSESS answer: met, with nothing to report, unless overridden. */
function assess(overrides: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ met: true, deviations: [], concerns: [], unexpected: [], ...overrides })}<end>`;
}

const CONCERNED = assess({ concerns: ['too long'] });

async function phasesOf(flow: ReturnType<typeof workflowTestRun>) {
  return (await flow.runs()).map(({ attempt, phase }) => `${attempt}:${phase}`);
}

async function supervisedRun(scripts: GoalScripts) {
  const flow = workflowTestRun(SUPERVISED, { report: ['The report.<end>'], ...scripts });
  await flow.start();
  return { flow, state: await flow.settle() };
}

describe('planGoal: supervision', () => {
  it('runs COMMIT, then EXECUTE, then ASSESS, each with its prompt', async () => {
    const { flow } = await supervisedRun({});
    const [committed, executed, assessed] = await flow.runs();
    const document =
      '<workflow name="review">\n\n<current-goal id="report">\nWrite the report.\n</current-goal>\n\n</workflow>';
    expect(committed?.message).toMatch(/^<supervision phase="commit" goal="report">\n/);
    expect(committed?.message.endsWith(`</supervision>\n\n${document}`)).toBe(true);
    expect(executed?.message).toBe(document);
    expect(assessed?.message).toMatch(/^<supervision phase="assess" goal="report">\n/);
    expect(assessed?.message).toContain("The goal's output:\nThe report.\n");
  });

  it.each([
    ['all is as committed', commit(), assess()],
    ['three assumptions', commit({ assumptions: ['a', 'b', 'c'] }), assess()],
    ['medium confidence', commit({ confidence: 'medium' }), assess()],
  ])(
    'completes the goal without SUPERVISE when RECONCILE finds nothing (%s)',
    async (_, committed, assessed) => {
      const { flow, state } = await supervisedRun({
        'report:commit': [committed],
        'report:assess': [assessed],
      });
      expect(state).toMatchObject({ next: 'done' });
      expect(await phasesOf(flow)).toEqual(['0:commit', '0:execute', '0:assess']);
      expect(await flow.records('verdict')).toEqual([]);
      expect((await flow.records('goal')).map(({ content }) => content)).toEqual(['The report.']);
    },
  );

  it.each([
    ['concerns', commit(), CONCERNED, 'concerns: [&#34;too long&#34;]'],
    ['a commitment not met', commit(), assess({ met: false }), 'the commitment was not met'],
    ['deviations', commit(), assess({ deviations: ['no table'] }), 'deviations: [&#34;no table&#34;]'],
    ['unexpected results', commit(), assess({ unexpected: ['a 404'] }), 'unexpected: [&#34;a 404&#34;]'],
    ['low confidence', commit({ confidence: 'low' }), assess(), 'low confidence'],
    ['more than three assumptions', commit({ assumptions: ['a', 'b', 'c', 'd'] }), assess(), '4 assumptions'],
  ])('asks SUPERVISE for a verdict on %s', async (_, committed, assessed, trigger) => {
    const { flow, state } = await supervisedRun({
      'report:commit': [committed],
      'report:assess': [assessed],
    });
    expect(state).toMatchObject({ next: 'done' });
    expect(await phasesOf(flow)).toEqual(['0:commit', '0:execute', '0:assess', '0:supervise']);
    const supervise = (await flow.runs()).at(-1);
    expect(supervise?.message).toContain(`Supervision was triggered by: ${trigger}.`);
    expect((await flow.records('verdict')).map(({ record }) => record.verdict)).toEqual(['CONTINUE']);
  });

  it('runs the goal again after REORIENT, with <correction source="supervisor">, supervised again', async () => {
    const { flow, state } = await supervisedRun({
      report: ['A long report.<end>', 'Short.<end>'],
      'report:assess': [CONCERNED, CONCERNED],
      'report:supervise': ['REORIENT: "Be brief."<end>', 'CONTINUE<end>'],
    });
    expect(state).toMatchObject({ next: 'done' });
    expect(await phasesOf(flow)).toEqual([
      '0:commit',
      '0:execute',
      '0:assess',
      '0:supervise',
      '1:commit',
      '1:execute',
      '1:assess',
      '1:supervise',
    ]);
    const rerun = (await flow.runs()).find(({ attempt, phase }) => attempt === 1 && phase === 'execute');
    expect(rerun?.message).toBe(`<workflow name="review">

<current-goal id="report">
Write the report.
</current-goal>

<correction source="supervisor">
Be brief.
</correction>

</workflow>`);
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.attempt, content])).toEqual([[1, 'Short.']]);
  });

  it(`takes the output as it is once the supervisor has sent the goal back ${MAX_REORIENTS} times`, async () => {
    const attempts = MAX_REORIENTS + 1;
    const { flow, state } = await supervisedRun({
      report: Array.from({ length: attempts }, (_, attempt) => `Version ${attempt}.<end>`),
      'report:assess': Array(attempts).fill(CONCERNED),
      // Distinct corrections: the scripted model replays a run whose message it has seen.
      'report:supervise': Array.from(
        { length: attempts },
        (_, attempt) => `REORIENT: "Fix ${attempt}."<end>`,
      ),
    });
    expect(state).toMatchObject({ next: 'done' });
    expect((await flow.records('verdict')).map(({ record }) => record.verdict)).toEqual(
      Array(attempts).fill('REORIENT'),
    );
    expect(await flow.records('correction')).toHaveLength(MAX_REORIENTS);
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.attempt, content])).toEqual([
      [MAX_REORIENTS, `Version ${MAX_REORIENTS}.`],
    ]);
  });

  it('asks a person at a human gate when the supervisor says PAUSE, with its question', async () => {
    const { flow, state } = await supervisedRun({
      'report:assess': [CONCERNED],
      'report:supervise': ['PAUSE: "Who reads this?"<end>'],
    });
    expect(state).toEqual({ run: flow.run, next: 'gate', gate: '0.0.0' });
    const gates = await flow.records('gate');
    expect(gates.map(({ record, content }) => [record.status, content])).toEqual([
      ['waiting', 'Who reads this?'],
    ]);
    expect(await flow.records('goal')).toEqual([]);
  });

  it.each([
    ['the workflow default', 'SUPERVISED\nNAME w\nGOAL g "Go."\nRUN r USING g', true],
    ['the RUN step', 'NAME w\nGOAL g "Go."\nRUN r USING g SUPERVISED', true],
    [
      'the goal, over the workflow default',
      'SUPERVISED\nNAME w\nGOAL g "Go." UNSUPERVISED\nRUN r USING g',
      false,
    ],
    ['the goal, over the RUN step', 'NAME w\nGOAL g "Go." UNSUPERVISED\nRUN r USING g SUPERVISED', false],
    ['nothing', 'NAME w\nGOAL g "Go."\nRUN r USING g', false],
  ])('supervises a goal as %s says', async (_, agentfile, supervised) => {
    const flow = workflowTestRun(agentfile, { g: ['Gone.<end>'] });
    await flow.start();
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    expect(await phasesOf(flow)).toEqual(supervised ? ['0:commit', '0:execute', '0:assess'] : ['0:execute']);
  });
});
