import { describe, expect, it } from 'vitest';
import { ERROR_NAMES } from '../error-names.js';
import { defineWorkflow } from './define-workflow.js';
import { InvalidWorkflowError } from './invalid-workflow-error.js';
import type { WorkflowSpec } from './workflow-spec.js';

const spec: WorkflowSpec = {
  name: 'code-review',
  supervision: 'supervised',
  inputs: [{ name: 'path', default: 'src' }],
  agents: [{ name: 'reviewer', prompt: 'You review $path.', outputs: ['verdict'], requires: 'smart' }],
  goals: [
    { name: 'scan', kind: 'goal', description: 'List the files.', outputs: [], using: [] },
    {
      name: 'review',
      kind: 'converge',
      description: 'Review until clean.',
      outputs: [],
      using: ['reviewer'],
      within: 3,
      supervision: 'human',
    },
  ],
  steps: [{ kind: 'run', name: 'main', goals: ['scan', 'review'] }],
  maxSteps: 40,
};

describe('defineWorkflow', () => {
  it('returns a spec written in TypeScript', () => {
    expect(defineWorkflow(spec)).toEqual(spec);
  });

  it('throws a named error listing each problem with its path', () => {
    const broken: WorkflowSpec = {
      ...spec,
      goals: [{ ...spec.goals[0], using: ['linter'] } as WorkflowSpec['goals'][0]],
    };
    expect(() => defineWorkflow(broken)).toThrow(
      expect.objectContaining({
        name: ERROR_NAMES.invalidWorkflow,
        message:
          'The workflow spec has 2 problems; fix each at its path:\n' +
          '  goals.0.using.0: GOAL scan uses "linter", which is not defined (expected the name of an AGENT)\n' +
          '  steps.0.goals.1: RUN main uses "review", which is not defined (expected the name of a GOAL or CONVERGE)',
      }),
    );
  });

  it('keeps the problems on the error', () => {
    const error = captured(() => defineWorkflow({ ...spec, steps: [] }));
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    expect((error as InvalidWorkflowError).problems).toEqual([
      { path: 'steps', message: 'expected at least one RUN or LOOP, found none' },
    ]);
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
