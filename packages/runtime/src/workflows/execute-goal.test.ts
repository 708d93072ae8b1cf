import { describe, expect, it } from 'vitest';
import { workflowTestRun } from './workflow-test-run.test-helpers.js';

const AGENTS = `
NAME trip
INPUT city DEFAULT "Lisbon"
AGENT optimist "You see what is good about $city."
AGENT critic "You see what can go wrong." -> risk
GOAL evaluate "Evaluate a day in $city." USING optimist, critic
RUN plan USING evaluate
`;

describe('executeGoal: USING agents', () => {
  it('plans every agent at once, in declared order, each with its task document and persona', async () => {
    const flow = workflowTestRun(AGENTS, {
      'evaluate[optimist]': ['Sunny.<end>'],
      'evaluate[critic]': ['Crowds. {"risk": "noon"}<end>'],
    });
    await flow.start();
    const state = await flow.advance();
    expect(state.goals).toHaveLength(2);
    const runs = await flow.runs();
    expect(runs.map(({ agent, message }) => [agent, message])).toEqual([
      [
        'optimist',
        '<task role="optimist" parent-goal="evaluate">\n<objective>\nEvaluate a day in Lisbon.\n</objective>\n</task>',
      ],
      [
        'critic',
        '<task role="critic" parent-goal="evaluate">\n<objective>\nEvaluate a day in Lisbon.\n\nReturn your response as JSON with the following fields: risk\n</objective>\n</task>',
      ],
    ]);
    for (const goal of state.goals ?? []) await flow.finish(goal);
    const systems = flow.model.calls.map((call) => call.system);
    expect(systems.filter((system) => system.startsWith('You see what is good about Lisbon.'))).toHaveLength(
      1,
    );
    expect(systems.filter((system) => system.startsWith('You see what can go wrong.'))).toHaveLength(1);
  });

  it('completes the goal with one record per agent in declared order, whichever agent ended first', async () => {
    const flow = workflowTestRun(AGENTS, {
      'evaluate[optimist]': ['Sunny.<end>'],
      'evaluate[critic]': ['Crowds. {"risk": "noon"}<end>'],
    });
    await flow.start();
    const [optimist, critic] = (await flow.advance()).goals ?? [];
    if (optimist === undefined || critic === undefined) expect.unreachable('two agent turns are planned');
    await flow.finish(critic);
    await flow.finish(optimist);
    expect(await flow.advance()).toMatchObject({ next: 'done' });
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.agent, content, record.fields ?? null])).toEqual([
      ['optimist', 'Sunny.', null],
      ['critic', 'Crowds. {"risk": "noon"}', { risk: 'noon' }],
    ]);
    expect(goals.map(({ seq }) => seq - (goals[0]?.seq ?? 0))).toEqual([0, 1]);
  });
});

const FIELDS = `
NAME ideas
GOAL brainstorm "List ideas." -> top, count
RUN go USING brainstorm
`;

describe('executeGoal: declared fields', () => {
  it('asks once more for missing fields, as the next turn of the same child session, naming them', async () => {
    const flow = workflowTestRun(FIELDS, {
      brainstorm: ['Tram, fado. {"top": "tram"}<end>', '{"top": "tram", "count": 2}<end>'],
    });
    await flow.start();
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const [execute, retry] = await flow.runs();
    expect(retry).toMatchObject({ phase: 'fields', session: execute?.session, turn: 't-2' });
    expect(retry?.message).toBe(
      'Your response has no JSON object with the field count.\n\nReturn your response as JSON with the following fields: top, count',
    );
    const [goal] = await flow.records('goal');
    expect(goal).toMatchObject({
      content: '{"top": "tram", "count": 2}',
      record: { goal: 'brainstorm', fields: { top: 'tram', count: 2 } },
    });
  });

  it('fails the run with GoalFieldsMissing when the retry still lacks a field', async () => {
    const flow = workflowTestRun(FIELDS, {
      brainstorm: ['No JSON here.<end>', 'Still {"top": "tram"}<end>'],
    });
    await flow.start();
    expect(await flow.settle()).toEqual({
      run: flow.run,
      next: 'failed',
      error: 'GoalFieldsMissing',
      message:
        "Goal brainstorm's output has no JSON object with the field count, even after a corrective retry (session wf-test.1).",
    });
    expect((await flow.runs()).map(({ phase }) => phase)).toEqual(['execute', 'fields']);
    expect(await flow.records('goal')).toEqual([]);
  });
});

const CONVERGE = (within: string) => `
NAME essay
INPUT max DEFAULT "4"
GOAL outline "Outline the essay." -> rounds
CONVERGE write "Write the essay." WITHIN ${within}
RUN go USING outline, write
`;

const OUTLINE = ['Three parts. {"rounds": 2}<end>'];

describe('executeGoal: CONVERGE', () => {
  it('runs iterations until one answers CONVERGED, and takes the iteration before it as the output', async () => {
    const flow = workflowTestRun(CONVERGE('5'), {
      outline: OUTLINE,
      write: ['Draft 1.<end>', 'Draft 2.<end>', '  CONVERGED\n<end>', 'never<end>'],
    });
    await flow.start();
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const runs = (await flow.runs()).filter(({ goal }) => goal === 'write');
    expect(runs.map(({ phase, n }) => [phase, n])).toEqual([
      ['iteration', 1],
      ['iteration', 2],
      ['iteration', 3],
    ]);
    expect(runs[2]?.message).toContain(
      '  <convergence-history>\n    <iteration n="1">\nDraft 1.\n    </iteration>\n    <iteration n="2">\nDraft 2.\n    </iteration>\n  </convergence-history>\n',
    );
    const write = (await flow.records('goal')).find(({ record }) => record.goal === 'write');
    expect(write?.content).toBe('Draft 2.');
    expect(write?.record.note).toBeUndefined();
  });

  it.each(['CONVERGED.', 'I think we have CONVERGED', 'converged'])(
    'does not take %j for CONVERGED: only the trimmed answer CONVERGED converges',
    async (answer) => {
      const flow = workflowTestRun(CONVERGE('2'), {
        outline: OUTLINE,
        write: ['Draft 1.<end>', `${answer}<end>`],
      });
      await flow.start();
      await flow.settle();
      const write = (await flow.records('goal')).find(({ record }) => record.goal === 'write');
      expect(write).toMatchObject({ content: answer, record: { note: 'converge_limit' } });
    },
  );

  it.each([
    ['a number', '2'],
    ['a field', '$rounds'],
    ['an input', '$max'],
  ])('stops at WITHIN (%s) with the last output and a converge_limit note', async (_, within) => {
    const flow = workflowTestRun(CONVERGE(within), {
      outline: OUTLINE,
      write: ['Draft 1.<end>', 'Draft 2.<end>', 'Draft 3.<end>', 'Draft 4.<end>'],
    });
    await flow.start(within === '$max' ? { max: '3' } : {});
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const write = (await flow.records('goal')).find(({ record }) => record.goal === 'write');
    const last = within === '$max' ? 'Draft 3.' : 'Draft 2.';
    expect(write).toMatchObject({ content: last, record: { note: 'converge_limit' } });
  });

  it.each([
    ['not a number', 'four', '"four"'],
    ['zero', '0', '"0"'],
    ['negative', '-1', '"-1"'],
  ])('fails the run with InvalidWithin when WITHIN $var is %s', async (_, max, shown) => {
    const flow = workflowTestRun(CONVERGE('$max'), { outline: OUTLINE });
    await flow.start({ max });
    expect(await flow.settle()).toEqual({
      run: flow.run,
      next: 'failed',
      error: 'InvalidWithin',
      message: `WITHIN $max must be a whole number above 0, but it is ${shown}.`,
    });
    expect((await flow.runs()).map(({ goal }) => goal)).toEqual(['outline']);
  });

  it('asks once more for a missing field, in the session of the iteration it keeps, then completes with the answer', async () => {
    const essay = `
NAME essay
CONVERGE write "Write the essay." -> title WITHIN 3
RUN go USING write
`;
    const flow = workflowTestRun(essay, {
      write: ['Draft 1.<end>', 'CONVERGED<end>', 'Draft 1. {"title": "On tides"}<end>'],
    });
    await flow.start();
    expect(await flow.settle()).toMatchObject({ next: 'done' });
    const [first, , retry] = await flow.runs();
    expect(retry).toMatchObject({ phase: 'fields', session: first?.session });
    const [write] = await flow.records('goal');
    expect(write).toMatchObject({
      content: 'Draft 1. {"title": "On tides"}',
      record: { goal: 'write', fields: { title: 'On tides' } },
    });
  });
});
