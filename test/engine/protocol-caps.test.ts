import { BATCH_CAPS } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { localAgent } from '../support/harness.js';

/** A model step of as many `echo` calls as one batch may hold. */
const fullBatch = `<execute>${JSON.stringify(
  Array.from({ length: BATCH_CAPS.calls }, (_, index) => ({ name: 'echo', args: { text: `${index}` } })),
)}</execute>`;

// What is measured here is the engine's (state size, execution history), not the store's: memory.
describe("the loop at the protocol's caps stays within Step Functions' limits", () => {
  it('runs a batch of as many calls as the protocol allows with its state well under the limit', async () => {
    const agent = await localAgent({ script: [fullBatch, 'Done.'], storage: 'memory' });
    const { output, stats } = await agent.turn('go');
    expect(output.status).toBe('done');
    expect(stats.toolCalls).toBe(BATCH_CAPS.calls);
    expect(stats.maxStatePayloadBytes).toBeLessThan(128 * 1024);
  });

  it('keeps a turn of full batches within the history limit by continuing in fresh executions', async () => {
    const script = [...Array.from({ length: 8 }, () => fullBatch), 'Done.'];
    const agent = await localAgent({ script, storage: 'memory' });
    const { output, stats } = await agent.turn('go', { maxSteps: 20, stepsPerExecution: 1000 });
    expect(output.status).toBe('done');
    expect(stats.toolCalls).toBe(8 * BATCH_CAPS.calls);
    expect(stats.executions).toBeGreaterThanOrEqual(2);
  });
});
