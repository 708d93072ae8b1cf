import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { renderContextInputSchema } from './render-input.js';

const goal = { render: 'goal', workflow: { name: 'w' }, current: { id: 'c', description: 'Do it.' } };
const task = {
  render: 'task',
  workflow: { name: 'w', agentfile: 'Agentfile' },
  task: { role: 'r', parent_goal: 'g', task: 't', include_prior: false, interpolate: false },
};

describe('renderContextInputSchema', () => {
  it.each([
    ['a minimal goal', goal],
    ['a minimal task', task],
    [
      'every field',
      {
        ...goal,
        inputs: { topic: 'tea' },
        prior: [
          { id: 'a', output: 'A', agent: 'x', fields: { f: 'v' } },
          { id: 'b', output: 'B', loop: 'l', iteration: 1 },
        ],
        converge: { history: [{ n: 1, output: 'v1' }] },
        current: { id: 'c', description: 'd', outputs: ['f'], loop: 'l', iteration: 2 },
        task: task.task,
        correction: { source: 'human', text: 'fix' },
      },
    ],
  ])('accepts %s', (_case, input) => {
    expect(renderContextInputSchema.parse(input)).toEqual(input);
  });

  it.each([
    [
      'render "goal" without current',
      { ...goal, current: undefined },
      'render "goal" needs "current"',
      'current',
    ],
    ['render "task" without task', { ...task, task: undefined }, 'render "task" needs "task"', 'task'],
    ['an unknown render', { ...goal, render: 'page' }, 'Invalid option', 'render'],
    ['an unknown key', { ...goal, extra: 1 }, 'Unrecognized key: "extra"', ''],
    [
      'an unknown key in a prior completion',
      { ...goal, prior: [{ id: 'a', output: 'A', n: 1 }] },
      'Unrecognized key',
      'prior.0',
    ],
    [
      'a number as output',
      { ...goal, prior: [{ id: 'a', output: 3 }] },
      'expected string, received number',
      'prior.0.output',
    ],
    [
      'iteration 0',
      { ...goal, current: { id: 'c', description: 'd', loop: 'l', iteration: 0 } },
      'expected number to be >=1',
      'current.iteration',
    ],
    [
      'a fractional n',
      { ...goal, converge: { history: [{ n: 1.5, output: 'v' }] } },
      'expected int',
      'converge.history.0.n',
    ],
    [
      'a loop without an iteration',
      { ...goal, prior: [{ id: 'a', output: 'A', loop: 'l' }] },
      'loop and iteration go together',
      'prior.0.iteration',
    ],
    [
      'an iteration without a loop',
      { ...goal, current: { id: 'c', description: 'd', iteration: 1 } },
      'loop and iteration go together',
      'current.iteration',
    ],
    [
      'an unknown correction source',
      { ...goal, correction: { source: 'bot', text: 't' } },
      'Invalid option',
      'correction.source',
    ],
    [
      'a field value that is not a string',
      { ...goal, inputs: { n: 1 } },
      'expected string, received number',
      'inputs.n',
    ],
  ])('rejects %s, naming the field', (_case, input, message, path) => {
    const result = renderContextInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.message).toContain(message);
    expect(issue?.path.join('.')).toBe(path);
    expect(z.prettifyError(result.error as z.ZodError)).toContain(message);
  });
});
