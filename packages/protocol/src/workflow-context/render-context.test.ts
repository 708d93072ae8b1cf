import { describe, expect, it } from 'vitest';
import { renderContext } from './render-context.js';
import { type RenderContextInput, renderContextInputSchema } from './render-input.js';

describe('renderContext', () => {
  it.each<[string, unknown, string[]]>([
    [
      'E9: render "goal" gives the goal document',
      {
        render: 'goal',
        workflow: { name: 'w', agentfile: 'examples/Agentfile' },
        inputs: { x: 'it' },
        current: { id: 'a', description: 'Do $x', outputs: ['f'] },
        task: { role: 'r', parent_goal: 'g', task: 'ignored', include_prior: false, interpolate: false },
      },
      [
        '<workflow name="w">',
        '',
        '<current-goal id="a">',
        'Do it',
        '',
        'Return your response as JSON with the following fields: f',
        '</current-goal>',
        '',
        '</workflow>',
      ],
    ],
    [
      'E7: render "task" gives the task document',
      {
        render: 'task',
        workflow: { name: 'w' },
        current: { id: 'g', description: 'ignored' },
        task: { role: 'r', parent_goal: 'g', task: 'Do $x', include_prior: true, interpolate: true },
        inputs: { x: 'it' },
      },
      ['<task role="r" parent-goal="g">', '<objective>', 'Do it', '</objective>', '</task>'],
    ],
  ])('%s', (_rule, description, lines) => {
    expect(renderContext(renderContextInputSchema.parse(description))).toBe(lines.join('\n'));
  });

  it.each<[RenderContextInput, string]>([
    [{ render: 'goal', workflow: { name: 'w' } }, 'render "goal" needs "current"'],
    [{ render: 'task', workflow: { name: 'w' } }, 'render "task" needs "task"'],
  ])('throws a TypeError for input the schema refuses: %j', (input, message) => {
    expect(() => renderContext(input)).toThrow(TypeError);
    expect(() => renderContext(input)).toThrow(message);
  });
});
