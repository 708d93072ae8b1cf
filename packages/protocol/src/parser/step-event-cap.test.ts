import { describe, expect, it } from 'vitest';
import { parse } from './parse.js';
import type { ParsedEvent } from './parsed-event.js';
import { STEP_CAPS } from './step-caps.js';
import { StepEventCap } from './step-event-cap.js';

const think: ParsedEvent = { type: 'think', content: 't' };
const respond: ParsedEvent = { type: 'respond', content: 'r' };
const call = (index: number): ParsedEvent => ({
  type: 'call',
  content: '{"name":"a","args":{}}',
  payload: { index },
});
const invalid = (index: number): ParsedEvent => ({
  type: 'error',
  content: 'not valid',
  payload: { index, element: '42' },
});
const bodyError: ParsedEvent = { type: 'error', content: 'not JSON' };
const execute: ParsedEvent = { type: 'execute' };
const end: ParsedEvent = { type: 'end' };
const capError = { type: 'error', content: expect.stringContaining("the protocol's cap per model step") };

describe('StepEventCap', () => {
  it.each([
    ['keeps a step within the cap whole', 4, [think, respond, call(0), call(1), execute]],
    ['does not count execute, end or a body-level error', 1, [think, bodyError, execute]],
    ['does not count <end>', 1, [respond, end]],
  ])('%s', (_, cap, events) => {
    const limited = new StepEventCap(cap);
    expect(limited.admit(events)).toEqual(events);
    expect(limited.over).toBe(false);
  });

  it.each([
    ['drops thoughts past the cap', 2, [think, respond, think, think], [think, respond]],
    [
      'drops a batch that does not fit whole, so no batch runs in part',
      3,
      [think, think, call(0), call(1), execute],
      [think, think],
    ],
    ['counts invalid elements, which are stored as calls', 2, [think, call(0), invalid(1), execute], [think]],
  ])('%s, and ends with one error naming the cap', (_, cap, events, kept) => {
    const limited = new StepEventCap(cap);
    expect(limited.admit(events)).toEqual([...kept, capError]);
    expect(limited.over).toBe(true);
  });

  it('counts across the chunks of a stream and admits nothing once over', () => {
    const limited = new StepEventCap(2);
    expect(limited.admit([think])).toEqual([think]);
    expect(limited.admit([respond, think])).toEqual([respond, capError]);
    expect(limited.admit([think])).toEqual([]);
  });

  it('says how many events were kept and what to do', () => {
    const [, error] = new StepEventCap(1).admit([think, think]);
    expect(error?.type === 'error' && error.content).toBe(
      "This step wrote more than 1 thoughts, prose fragments and calls, the protocol's cap per model step: the first 1 were kept and the rest dropped, so no call of this step ran. Write fewer, longer <think> blocks and prose fragments, and make your calls in the next step.",
    );
  });

  it(`caps a parsed step at ${STEP_CAPS.events} events by default`, () => {
    const events = new StepEventCap().admit(parse('<think>x</think>'.repeat(STEP_CAPS.events + 1)));
    expect(events).toHaveLength(STEP_CAPS.events + 1);
    expect(events.at(-1)).toEqual(capError);
  });
});
