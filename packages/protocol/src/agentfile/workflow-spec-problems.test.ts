import { describe, expect, it } from 'vitest';
import type { WorkflowSpec } from './workflow-spec.js';
import { type WorkflowSpecProblem, workflowSpecProblems } from './workflow-spec-problems.js';

const base: WorkflowSpec = {
  name: 'review',
  inputs: [{ name: 'topic' }, { name: 'rounds', default: '3' }],
  agents: [{ name: 'critic', prompt: 'You are a critic.', outputs: ['notes'] }],
  goals: [
    { name: 'draft', kind: 'goal', description: 'Write about $topic.', outputs: ['text'], using: [] },
    {
      name: 'polish',
      kind: 'converge',
      description: 'Polish it.',
      outputs: [],
      using: ['critic'],
      within: { variable: 'rounds' },
    },
  ],
  steps: [{ kind: 'run', name: 'main', goals: ['draft', 'polish'] }],
};

function withChanges(change: (spec: WorkflowSpec) => void): WorkflowSpec {
  const spec = structuredClone(base);
  change(spec);
  return spec;
}

describe('workflowSpecProblems', () => {
  it('finds nothing in a consistent spec', () => {
    expect(workflowSpecProblems(base)).toEqual([]);
  });

  it.each<[string, (spec: WorkflowSpec) => void, WorkflowSpecProblem[]]>([
    [
      'a name defined twice',
      (spec) => {
        spec.agents.push({ name: 'topic', prompt: 'p', outputs: [] });
      },
      [
        {
          path: ['agents', 1, 'name'],
          message:
            'AGENT topic reuses a name: expected a name no other INPUT, AGENT, GOAL, CONVERGE, RUN or LOOP has, found the name of the INPUT defined at inputs.0',
        },
      ],
    ],
    [
      'a step using an agent',
      (spec) => {
        spec.steps[0]?.goals.push('critic');
      },
      [
        {
          path: ['steps', 0, 'goals', 2],
          message:
            'RUN main uses "critic", which is not a GOAL or CONVERGE (it is an AGENT defined at agents.0)',
        },
      ],
    ],
    [
      'a goal using an undefined agent',
      (spec) => {
        spec.goals[0]?.using.push('editor');
      },
      [
        {
          path: ['goals', 0, 'using', 0],
          message: 'GOAL draft uses "editor", which is not defined (expected the name of an AGENT)',
        },
      ],
    ],
    [
      'a goal using a goal',
      (spec) => {
        spec.goals[1]?.using.push('draft');
      },
      [
        {
          path: ['goals', 1, 'using', 1],
          message: 'CONVERGE polish uses "draft", which is not an AGENT (it is a GOAL defined at goals.0)',
        },
      ],
    ],
    [
      'an agent listed twice',
      (spec) => {
        spec.goals[1]?.using.push('critic');
      },
      [
        {
          path: ['goals', 1, 'using', 1],
          message:
            'CONVERGE polish lists agent "critic" twice: expected each agent once, found it again after goals.1.using.0',
        },
      ],
    ],
    [
      'an output field listed twice',
      (spec) => {
        spec.agents[0]?.outputs.push('notes');
      },
      [
        {
          path: ['agents', 0, 'outputs', 1],
          message:
            'AGENT critic lists output field "notes" twice: expected each output field once, found it again after agents.0.outputs.0',
        },
      ],
    ],
    [
      'an output field named like an input',
      (spec) => {
        spec.goals[0]?.outputs.push('topic');
      },
      [
        {
          path: ['goals', 0, 'outputs', 1],
          message:
            'GOAL draft declares output field "topic": expected a field name no INPUT has, found the name of the INPUT defined at inputs.0',
        },
      ],
    ],
    [
      'a WITHIN on a GOAL',
      (spec) => {
        if (spec.goals[0]) spec.goals[0].within = 2;
      },
      [
        {
          path: ['goals', 0, 'within'],
          message:
            'GOAL draft has a WITHIN: expected WITHIN only on a CONVERGE (or a LOOP), found it on a GOAL',
        },
      ],
    ],
    [
      'synthesize on a GOAL without USING',
      (spec) => {
        if (spec.goals[0]) spec.goals[0].synthesize = true;
      },
      [
        {
          path: ['goals', 0, 'synthesize'],
          message:
            'GOAL draft sets synthesize: expected it only on a GOAL with USING agents, whose outputs it merges, found it on a GOAL without USING',
        },
      ],
    ],
    [
      'a CONVERGE without WITHIN',
      (spec) => {
        delete spec.goals[1]?.within;
      },
      [
        {
          path: ['goals', 1, 'within'],
          message: 'CONVERGE polish has no WITHIN: expected a whole number > 0 or a { variable }, found none',
        },
      ],
    ],
    [
      'a WITHIN variable naming nothing',
      (spec) => {
        spec.steps.push({ kind: 'loop', name: 'again', goals: ['draft'], within: { variable: 'max' } });
      },
      [
        {
          path: ['steps', 1, 'within'],
          message:
            'LOOP again has WITHIN $max: expected an INPUT or a declared output field (one of $topic, $rounds, $notes, $text), found neither',
        },
      ],
    ],
    [
      'UNSUPERVISED under SUPERVISED HUMAN',
      (spec) => {
        spec.supervision = 'human';
        spec.steps[0] = { kind: 'run', name: 'main', goals: ['draft'], supervision: 'unsupervised' };
      },
      [
        {
          path: ['steps', 0, 'supervision'],
          message:
            "RUN main is UNSUPERVISED: expected SUPERVISED, SUPERVISED HUMAN or no modifier under the workflow's SUPERVISED HUMAN (at supervision), found UNSUPERVISED",
        },
      ],
    ],
    [
      'no step',
      (spec) => {
        spec.steps = [];
      },
      [{ path: ['steps'], message: 'expected at least one RUN or LOOP, found none' }],
    ],
  ])('reports %s at its path', (_case, change, expected) => {
    expect(workflowSpecProblems(withChanges(change))).toEqual(expected);
  });

  it('allows UNSUPERVISED under a plain SUPERVISED default', () => {
    const spec = withChanges((draft) => {
      draft.supervision = 'supervised';
      if (draft.agents[0]) draft.agents[0].supervision = 'unsupervised';
    });
    expect(workflowSpecProblems(spec)).toEqual([]);
  });

  it('names places by position, takes the earliest definition as the first, and reports a name defined twice only once', () => {
    const spec = withChanges((draft) => {
      draft.goals.push({ name: 'critic', kind: 'goal', description: 'd', outputs: [], using: [] });
    });
    const lines: Record<string, number> = {
      'inputs.0': 1,
      'inputs.1': 2,
      'goals.2': 3,
      'goals.0': 4,
      'goals.1': 5,
      'agents.0': 9,
      'steps.0': 10,
    };
    const locate = (path: (string | number)[]) => {
      const line = lines[path.slice(0, 2).join('.')];
      return line === undefined ? undefined : { line, column: 1 };
    };
    expect(workflowSpecProblems(spec, locate)).toEqual([
      {
        path: ['agents', 0, 'name'],
        message:
          'AGENT critic reuses a name: expected a name no other INPUT, AGENT, GOAL, CONVERGE, RUN or LOOP has, found the name of the GOAL defined at 3:1',
      },
    ]);
  });
});
