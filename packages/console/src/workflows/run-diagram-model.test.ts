import { describe, expect, it } from 'vitest';
import { runDiagram } from './run-diagram-model.js';
import type { WorkflowRecordEvent } from './use-workflow-run.js';

const slot = (goal: string) => ({ slot: `edit.${goal}`, goal, attempt: 0 });
const child = (goal: string, n: number | undefined, session: string, agent?: string) => ({
  kind: 'run',
  ...slot(goal),
  phase: n === undefined ? 'execute' : 'iteration',
  ...(n === undefined ? {} : { n }),
  ...(agent === undefined ? {} : { agent }),
  session,
  turn: `t-${session}`,
  execution: 'x',
});

/** The records of a run of "CONVERGE tighten; GOAL publish USING critic, fan SUPERVISED HUMAN; RUN edit". */
function records(...payloads: Array<Record<string, unknown>>): WorkflowRecordEvent[] {
  const start = {
    kind: 'start',
    inputs: {},
    spec: {
      name: 'abstract',
      inputs: [],
      agents: [],
      goals: [
        { name: 'tighten', kind: 'converge', description: '', outputs: [], using: [] },
        { name: 'publish', kind: 'goal', description: '', outputs: [], using: ['critic', 'fan'] },
      ],
      steps: [{ kind: 'run', name: 'edit', goals: ['tighten', 'publish'] }],
    },
  };
  return [start, ...payloads].map(
    (payload, index) =>
      ({ seq: index + 1, type: 'workflow', payload, timestamp: 1 }) as unknown as WorkflowRecordEvent,
  );
}

describe('runDiagram', () => {
  it('draws each step with its goals in order: states, iterations, sessions, agents, gates', () => {
    const lanes = runDiagram(
      records(
        child('tighten', 1, 'r.1'),
        child('tighten', 2, 'r.2'),
        child('tighten', 3, 'r.3'),
        { kind: 'goal', ...slot('tighten'), iteration: 3 },
        child('publish', undefined, 'r.4', 'critic'),
        { kind: 'gate', ...slot('publish'), gate: '0.1.0', status: 'waiting' },
      ),
    );
    expect(lanes).toEqual([
      {
        step: 'edit',
        kind: 'run',
        goals: [
          { goal: 'tighten', kind: 'converge', state: 'done', iterations: 3, session: 'r.3', agents: [] },
          {
            goal: 'publish',
            kind: 'goal',
            state: 'running',
            iterations: 0,
            agents: [{ agent: 'critic', session: 'r.4' }, { agent: 'fan' }],
            gate: 'waiting',
          },
        ],
      },
    ]);
  });

  it('draws nothing before the run has started', () => {
    expect(runDiagram([])).toEqual([]);
  });
});
