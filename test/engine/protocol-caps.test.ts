import { BATCH_CAPS, ERROR_NAMES, STEP_CAPS } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { localAgent } from '../support/harness.js';

/** Model step `step` of as many `echo` calls as one batch may hold, none a call of another step. */
const fullBatch = (step = 0) =>
  `<execute>${JSON.stringify(
    Array.from({ length: BATCH_CAPS.calls }, (_, index) => ({
      name: 'echo',
      args: { text: `${step}.${index}` },
    })),
  )}</execute>`;

// What is measured here is the engine's (state size, execution history), not the store's: memory.
describe("the loop at the protocol's caps stays within Step Functions' limits", () => {
  it('runs a batch of as many calls as the protocol allows with its state well under the limit', async () => {
    const agent = await localAgent({ script: [fullBatch(), 'Done.'], storage: 'memory' });
    const { output, stats } = await agent.turn('go');
    expect(output.status).toBe('done');
    expect(stats.toolCalls).toBe(BATCH_CAPS.calls);
    expect(stats.maxStatePayloadBytes).toBeLessThan(128 * 1024);
  });

  it('keeps a turn of full batches within the history limit by continuing in fresh executions', async () => {
    // Each step's calls new: the same calls again would stop the turn (RepeatedCall, decision 0030).
    const script = [...Array.from({ length: 8 }, (_, step) => fullBatch(step)), 'Done.'];
    const agent = await localAgent({ script, storage: 'memory' });
    const { output, stats } = await agent.turn('go', { maxSteps: 20, stepsPerExecution: 1000 });
    expect(output.status).toBe('done');
    expect(stats.toolCalls).toBe(8 * BATCH_CAPS.calls);
    expect(stats.executions).toBeGreaterThanOrEqual(2);
  });
});

describe('the loop at the cap on events per model step, and a model that returns nothing', () => {
  // On DynamoDB Local: what the cap bounds is the time a step's append takes there.
  it.skipIf(dynamoEndpoint === '')(
    'stores a step’s events up to the cap; the model reads a failure naming it and goes on',
    async () => {
      const thoughts = '<think>x</think>'.repeat(2 * STEP_CAPS.events);
      const agent = await localAgent({ script: [thoughts, 'Done.'] });
      const { output, events } = await agent.turn('go');
      expect(output.status).toBe('done');
      expect(events.filter(({ event }) => event.type === 'think')).toHaveLength(STEP_CAPS.events);
      const result = events.find(({ event }) => event.type === 'result')?.event.content;
      expect(result).toContain(`more than ${STEP_CAPS.events} thoughts, prose fragments and calls`);
      expect(events.at(-2)?.event).toMatchObject({ type: 'respond', content: 'Done.' });
    },
  );

  it('asks a model that returned nothing once more, then ends the turn failed with EmptyModelOutput', async () => {
    const agent = await localAgent({ script: ['', '  ', 'never asked'], storage: 'memory' });
    const { output, events } = await agent.turn('go');
    expect(output.status).toBe('failed');
    expect(agent.model.calls).toHaveLength(2);
    expect(events.map(({ event }) => event.type)).toEqual(['user', 'turn_end']);
    expect(events.at(-1)?.event).toMatchObject({
      content: expect.stringContaining('The model returned nothing'),
      payload: { status: 'failed', error: ERROR_NAMES.emptyModelOutput },
    });
  });
});
