import type { StoredEvent } from '@agentstep/protocol';
import type { Model } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { batch, localAgent } from '../support/harness.js';

/** A wrapper that counts the model steps actually taken (paid for). */
function counted() {
  const steps = { taken: 0 };
  const wrap = (scripted: Model): Model => ({
    id: scripted.id,
    stream(request) {
      steps.taken++;
      return scripted.stream(request);
    },
  });
  return { steps, wrap };
}

const turnEnd = (events: readonly StoredEvent[]) =>
  events.find(({ event }) => event.type === 'turn_end')?.event;
const batchesOf = (events: readonly StoredEvent[]) =>
  new Set(events.flatMap(({ batch: id }) => (id === undefined ? [] : [id]))).size;

describe('runaway guards (decision 0030): synthesized state machine, real handlers, in-memory stores', () => {
  it('a model repeating one call: the turn ends `limit` with RepeatedCall at the third repeat, no 4th model step', async () => {
    const { steps, wrap } = counted();
    const echo = batch(['echo', { text: 'hi' }]);
    const agent = await localAgent({
      storage: 'memory',
      script: [echo, echo, echo, echo, 'Done.<end>'],
      model: wrap,
    });
    const { output, events } = await agent.turn('go');
    expect(output).toMatchObject({ status: 'limit' });
    expect(turnEnd(events)).toMatchObject({
      payload: { status: 'limit' },
      content: expect.stringMatching(
        /^RepeatedCall: echo was called 3 times with the same arguments \{"text":"hi"\}\. /,
      ),
    });
    expect(steps.taken).toBe(3);
    expect(batchesOf(events)).toBe(3);
  });

  it('limits.repeatedCalls: 5 lets the call repeat five times, then stops the turn', async () => {
    const { steps, wrap } = counted();
    const echo = batch(['echo', { text: 'hi' }]);
    const agent = await localAgent({
      storage: 'memory',
      script: Array.from({ length: 7 }, () => echo),
      model: wrap,
      limits: { repeatedCalls: 5 },
    });
    const { output, events } = await agent.turn('go');
    expect(output).toMatchObject({ status: 'limit' });
    expect(turnEnd(events)?.content).toMatch(/^RepeatedCall: echo was called 5 times/);
    expect(steps.taken).toBe(5);
  });

  it('steps whose calls all fail: the turn ends `limit` with NoProgress after stepsWithoutProgress steps', async () => {
    const { steps, wrap } = counted();
    const failing = (index: number) => batch(['fail', { message: `boom ${index}` }]);
    const agent = await localAgent({
      storage: 'memory',
      script: Array.from({ length: 6 }, (_, index) => failing(index)),
      model: wrap,
      limits: { stepsWithoutProgress: 4 },
    });
    const { output, events } = await agent.turn('go');
    expect(output).toMatchObject({ status: 'limit' });
    expect(turnEnd(events)).toMatchObject({
      payload: { status: 'limit' },
      content: expect.stringMatching(
        /^NoProgress: the turn took 4 model steps in a row without a successful call\. /,
      ),
    });
    expect(steps.taken).toBe(4);
  });
});
