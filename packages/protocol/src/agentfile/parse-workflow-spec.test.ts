import { describe, expect, it } from 'vitest';
import { parseWorkflowSpec } from './parse-workflow-spec.js';

const spec = {
  name: 'panel',
  inputs: [],
  agents: [{ name: 'optimist', prompt: 'You see chances.', outputs: [] }],
  goals: [
    {
      name: 'weigh',
      kind: 'goal',
      description: 'Weigh it.',
      outputs: [],
      using: ['optimist'],
      synthesize: true,
    },
  ],
  steps: [{ kind: 'run', name: 'main', goals: ['weigh'] }],
};

describe('parseWorkflowSpec', () => {
  it('returns the spec of valid JSON', () => {
    expect(parseWorkflowSpec(JSON.parse(JSON.stringify(spec)))).toEqual({ ok: true, spec });
  });

  it('returns every problem with its dotted path', () => {
    const broken = { ...spec, name: 'a panel', goals: [{ ...spec.goals[0], using: ['pessimist'] }] };
    expect(parseWorkflowSpec(broken)).toEqual({
      ok: false,
      errors: [
        { path: 'name', message: 'expected a name: a letter or _, then letters, digits, _ or -' },
        {
          path: 'goals.0.using.0',
          message: 'GOAL weigh uses "pessimist", which is not defined (expected the name of an AGENT)',
        },
      ],
    });
  });

  it.each([null, 'NAME x', 42, []])('refuses %j without throwing', (value) => {
    expect(parseWorkflowSpec(value)).toMatchObject({ ok: false, errors: [{ path: '' }] });
  });
});
