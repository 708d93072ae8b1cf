import { describe, expect, it } from 'vitest';
import { machineStates } from './testing/machine-states.js';
import { defaultAgent } from './testing/synth-agent.js';

describe('WorkflowStateMachine (synthesized)', () => {
  it('ends every workflow run by announcing it: failed, or completed (done and aborted)', () => {
    const workflows = machineStates(defaultAgent().template, 'workflows');
    expect(workflows.WorkflowRoute).toMatchObject({
      Choices: expect.arrayContaining([
        { Variable: '$.next', StringEquals: 'failed', Next: 'PublishRunFailed' },
      ]),
      Default: 'PublishRunCompleted',
    });
    const run = { 'run.$': '$.run', 'status.$': '$.next', 'message.$': '$.message' };
    for (const [name, detailType, detail, next] of [
      ['PublishRunCompleted', 'Workflow Run Completed', run, 'WorkflowDone'],
      ['PublishRunFailed', 'Workflow Run Failed', { ...run, 'error.$': '$.error' }, 'WorkflowFailed'],
    ] as const) {
      expect(String(workflows[name]?.Resource)).toMatch(/:states:::events:putEvents$/);
      expect(workflows[name]).toMatchObject({
        Parameters: { Entries: [{ Source: 'agentstep', DetailType: detailType, Detail: detail }] },
        ResultPath: null,
        Next: next,
      });
    }
  });
});
