import { STATE_NAMES } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { synthesizedAgent } from '../support/harness.js';

type States = Record<string, { Type: string; TimeoutSeconds?: number; ItemProcessor?: { States: States } }>;

/** Every Task state's timeout by name, the RunTools map's item states included. */
function taskTimeouts(states: States): Record<string, number | undefined> {
  return Object.fromEntries(
    Object.entries(states).flatMap(([name, state]) => [
      ...(state.Type === 'Task' ? [[name, state.TimeoutSeconds]] : []),
      ...Object.entries(state.ItemProcessor ? taskTimeouts(state.ItemProcessor.States) : {}),
    ]),
  );
}

describe('the synthesized definition the local engine runs', () => {
  it('names the calling state machine’s live alias in every InvokeTool payload, where sub-agents start', async () => {
    const { definition } = await synthesizedAgent();
    const runTools = (definition.States as Record<string, { ItemSelector?: Record<string, string> }>)[
      STATE_NAMES.runTools
    ];
    expect(runTools?.ItemSelector?.['stateMachine.$']).toBe(
      "States.Format('arn:aws:states:us-east-1:123456789012:stateMachine:{}:live', $$.StateMachine.Name)",
    );
  });

  it('times out every task and every execution', async () => {
    const { definition } = await synthesizedAgent();
    const timeouts = taskTimeouts(definition.States as unknown as States);
    expect(Object.keys(timeouts)).toHaveLength(15);
    for (const seconds of Object.values(timeouts)) expect(seconds).toBeGreaterThan(0);
    expect(timeouts).toMatchObject({
      ModelStep: 330,
      FinishTurn: 60,
      InvokeTool: 930,
      // It waits for the fresh execution (.sync:2): as long as an execution may run.
      ContinueAsNew: 9 * 24 * 60 * 60,
      FindVersion: 30,
      DescribeTurn: 60,
      PublishTurnCompleted: 60,
      PublishTurnFailed: 60,
      AwaitApproval: 24 * 60 * 60,
    });
    // The whole turn (its first execution waits for the rest): 7 days plus twice the approval timeout.
    expect((definition as { TimeoutSeconds?: number }).TimeoutSeconds).toBe(9 * 24 * 60 * 60);
  });
});
