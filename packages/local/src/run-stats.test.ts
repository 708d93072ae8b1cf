import { STATE_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { countState, type EngineEvent, emptyStats } from './run-stats.js';

const runTools = { name: STATE_NAMES.runTools };
const entered = (name: string, index?: number): EngineEvent => ({
  type: 'StateEntered',
  state: { name },
  ...(index === undefined ? {} : { index }),
});

describe('countState', () => {
  it('counts a call once, though InvokeTool runs again once its approval is decided', () => {
    const stats = emptyStats();
    const events: EngineEvent[] = [
      entered(STATE_NAMES.runTools),
      // Call 0 waits for approval: InvokeTool fails with ApprovalRequired, then runs again.
      { type: 'MapIterationStarted', parentState: runTools, index: 0 },
      entered(STATE_NAMES.invokeTool, 0),
      entered(STATE_NAMES.awaitApproval, 0),
      entered(STATE_NAMES.invokeTool, 0),
      { type: 'MapIterationSucceeded', parentState: runTools, index: 0 },
      // Call 1 runs at once.
      { type: 'MapIterationStarted', parentState: runTools, index: 1 },
      entered(STATE_NAMES.invokeTool, 1),
      { type: 'MapIterationSucceeded', parentState: runTools, index: 1 },
    ];
    for (const event of events) countState(stats, event, 0);
    expect(stats.toolCalls).toBe(2);
    expect(stats.stateTransitions).toBe(5);
  });

  it('counts no call for the iterations of another Map state', () => {
    const stats = emptyStats();
    countState(stats, { type: 'MapIterationStarted', parentState: { name: 'Goals' }, index: 0 }, 0);
    expect(stats.toolCalls).toBe(0);
  });
});
