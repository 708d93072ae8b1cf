import { describe, expect, it } from 'vitest';
import { type WorkflowSpec, workflowSpecSchema } from './workflow-spec.js';

const spec: WorkflowSpec = {
  name: 'essay',
  inputs: [{ name: 'topic' }],
  agents: [],
  goals: [{ name: 'write', kind: 'goal', description: 'Write about $topic.', outputs: [], using: [] }],
  steps: [{ kind: 'run', name: 'main', goals: ['write'] }],
  maxSteps: 20,
};

function issues(value: unknown): { path: PropertyKey[]; message: string }[] {
  const parsed = workflowSpecSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map(({ path, message }) => ({ path, message }));
}

describe('workflowSpecSchema', () => {
  it('accepts a consistent spec unchanged', () => {
    expect(workflowSpecSchema.parse(spec)).toEqual(spec);
  });

  it.each<[string, unknown, PropertyKey[]]>([
    ['a name that is no identifier', { ...spec, name: 'my essay' }, ['name']],
    [
      'a WITHIN of 0',
      { ...spec, steps: [{ kind: 'loop', name: 'l', goals: ['write'], within: 0 }] },
      ['steps', 0, 'within'],
    ],
    [
      'a fractional WITHIN',
      { ...spec, steps: [{ kind: 'loop', name: 'l', goals: ['write'], within: 1.5 }] },
      ['steps', 0, 'within'],
    ],
    [
      'a step with no goal',
      { ...spec, steps: [{ kind: 'run', name: 'main', goals: [] }] },
      ['steps', 0, 'goals'],
    ],
    [
      'an unknown step kind',
      { ...spec, steps: [{ kind: 'repeat', name: 'main', goals: ['write'] }] },
      ['steps', 0, 'kind'],
    ],
    ['a workflow default of UNSUPERVISED', { ...spec, supervision: 'unsupervised' }, ['supervision']],
    ['a maxSteps of 0', { ...spec, maxSteps: 0 }, ['maxSteps']],
  ])('rejects %s at its path', (_case, value, path) => {
    expect(issues(value).map((issue) => issue.path)).toContainEqual(path);
  });

  it('checks cross references once the shapes hold', () => {
    expect(issues({ ...spec, steps: [{ kind: 'run', name: 'main', goals: ['topic'] }] })).toEqual([
      {
        path: ['steps', 0, 'goals', 0],
        message:
          'RUN main uses "topic", which is not a GOAL or CONVERGE (it is an INPUT defined at inputs.0)',
      },
    ]);
  });
});
