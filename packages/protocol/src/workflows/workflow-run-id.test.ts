import { describe, expect, it } from 'vitest';
import { goalSessionId, runOfGoalSession, workflowRunIdSchema } from './workflow-run-id.js';

describe('workflowRunIdSchema', () => {
  it.each([['wf-1a2b'], ['r'], ['release_1-4']])('takes %j', (id) => {
    expect(workflowRunIdSchema.safeParse(id).success).toBe(true);
  });

  it.each([['r.1'], ['a.b'], ['.'], [''], ['r/1']])('refuses %j', (id) => {
    expect(workflowRunIdSchema.safeParse(id).success).toBe(false);
  });

  it('says why a dotted id is refused', () => {
    expect(workflowRunIdSchema.safeParse('r.1').error?.issues[0]?.message).toMatch(/must not hold "\."/);
  });
});

describe('runOfGoalSession', () => {
  it.each([
    ['r.1', 'r'],
    ['0123456789abcdef.r.12', '0123456789abcdef.r'],
    ['r', undefined],
    ['r.x', undefined],
    ['r.1--sub-123456789012', undefined],
    ['.1', undefined],
  ])('reads %j as a goal session of %j', (session, run) => {
    expect(runOfGoalSession(session)).toBe(run);
  });

  it('reads back the goal sessions goalSessionId names', () => {
    expect(runOfGoalSession(goalSessionId('wf-9', 3))).toBe('wf-9');
  });
});
