import { describe, expect, it } from 'vitest';
import { STEP_CAPS } from './step-caps.js';
import { StepOutputCap } from './step-output-cap.js';

describe('StepOutputCap', () => {
  it('admits text up to the cap, counted in UTF-8 bytes', () => {
    const cap = new StepOutputCap(10);
    expect(cap.admit('abc')).toBe(true);
    expect(cap.admit('é漢')).toBe(true); // 2 + 3 bytes: 8 in all
    expect(cap.admit('xy')).toBe(true); // exactly the cap
    expect(cap.over).toBe(false);
  });

  it('refuses the chunk that would pass the cap, and every chunk after it', () => {
    const cap = new StepOutputCap(10);
    expect(cap.admit('12345678')).toBe(true);
    expect(cap.admit('🙂')).toBe(false); // 4 bytes, though 2 UTF-16 units
    expect(cap.over).toBe(true);
    expect(cap.admit('')).toBe(false);
  });

  it('names the cap and what to do in its refusal, an error without a position', () => {
    expect(new StepOutputCap(10).refusal()).toEqual({
      type: 'error',
      content:
        "This step wrote more than 10 bytes of text, the protocol's cap per model step: its output was cut there and only the thoughts and prose it had finished before were kept, so no call of this step ran. Write less in one step: shorter <think> blocks and prose, and large data split over several calls and steps.",
    });
  });

  it(`caps a step at ${STEP_CAPS.outputBytes} bytes (16 MiB) by default`, () => {
    const cap = new StepOutputCap();
    const chunk = 'x'.repeat(1024 * 1024);
    for (let mebibyte = 0; mebibyte < 16; mebibyte++) expect(cap.admit(chunk)).toBe(true);
    expect(cap.admit('x')).toBe(false);
  });
});
