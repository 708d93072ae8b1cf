import { describe, expect, it } from 'vitest';
import { DEFAULT_GOAL_STEPS } from './advance-workflow.js';
import { EXECUTION, workflowTestRun } from './workflow-test-run.test-helpers.js';

const TWO_GOALS = `
NAME pair
GOAL first "Do the first thing."
GOAL second "Do the second thing."
RUN go USING first, second
`;

const ANSWERS = { first: ['First.<end>'], second: ['Second.<end>'] };

describe('advanceWorkflow', () => {
  it('hands RunGoals each planned turn with the goal step limit', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    expect(await flow.advance()).toEqual({
      run: flow.run,
      next: 'goals',
      goals: [{ session: `${flow.run}.1`, turn: 't-1', maxSteps: DEFAULT_GOAL_STEPS }],
    });
  });

  it('fails the run with GoalFailed, naming the goal and its session, when a child turn fails', async () => {
    const flow = workflowTestRun(TWO_GOALS, { first: [] });
    await flow.start();
    expect(await flow.settle()).toEqual({
      run: flow.run,
      next: 'failed',
      error: 'GoalFailed',
      message: `Goal first (execute) ended failed: see session ${flow.run}.1.`,
    });
    expect((await flow.records('output')).map(({ record }) => record.status)).toEqual(['failed']);
    expect((await flow.runs()).map(({ goal }) => goal)).toEqual(['first']);
  });

  it('counts a child turn that never closed by the end of RunGoals as failed', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    await flow.advance();
    expect(await flow.advance()).toMatchObject({ next: 'failed', error: 'GoalFailed' });
  });

  it('records the child turns of a dead execution abandoned and runs them again, never a finished goal', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    const [first] = (await flow.advance()).goals ?? [];
    await flow.finish(first ?? expect.unreachable('the first goal is planned'));
    await flow.advance();
    // The execution died while the second goal ran; a redriven run starts in a new execution.
    const redriven = await flow.advance({ run: flow.run }, 'execution-2');
    expect(redriven).toMatchObject({ next: 'goals', goals: [{ session: `${flow.run}.3`, turn: 't-3' }] });
    for (const goal of redriven.goals ?? []) await flow.finish(goal);
    expect(await flow.advance()).toMatchObject({ next: 'done' });
    const outputs = await flow.records('output');
    expect(outputs.map(({ record }) => [record.goal, record.execution, record.status])).toEqual([
      ['first', EXECUTION, 'done'],
      ['second', EXECUTION, 'abandoned'],
      ['second', 'execution-2', 'done'],
    ]);
    const goals = await flow.records('goal');
    expect(goals.map(({ record, content }) => [record.goal, content])).toEqual([
      ['first', 'First.'],
      ['second', 'Second.'],
    ]);
  });

  it('waits for the turns it started when a retried call finds them still running, and writes nothing', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    const started = await flow.advance({ run: flow.run });
    const log = await flow.deps.log.read(flow.run);
    const child = await flow.deps.log.read(`${flow.run}.1`);
    expect(await flow.advance({ run: flow.run })).toEqual(started);
    expect(await flow.deps.log.read(flow.run)).toEqual(log);
    expect(await flow.deps.log.read(`${flow.run}.1`)).toEqual(child);
  });

  it('waits for the next goal’s turn when a call after RunGoals is retried once it started that turn', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    const mapped = await flow.advance();
    for (const goal of mapped.goals ?? []) await flow.finish(goal);
    const next = await flow.advance(mapped);
    expect(next).toMatchObject({ next: 'goals', goals: [{ session: `${flow.run}.2` }] });
    const log = await flow.deps.log.read(flow.run);
    expect(await flow.advance(mapped)).toEqual(next);
    expect(await flow.deps.log.read(flow.run)).toEqual(log);
  });

  it('appends nothing twice when a call with the same input comes again after the run ended', async () => {
    const flow = workflowTestRun(TWO_GOALS, ANSWERS);
    await flow.start();
    const [first] = (await flow.advance()).goals ?? [];
    await flow.finish(first ?? expect.unreachable('the first goal is planned'));
    const afterFirst = await flow.advance();
    for (const goal of afterFirst.goals ?? []) await flow.finish(goal);
    const done = await flow.advance(afterFirst);
    const log = await flow.deps.log.read(flow.run);
    expect(await flow.advance(afterFirst)).toEqual(done);
    expect(await flow.deps.log.read(flow.run)).toEqual(log);
  });
});
