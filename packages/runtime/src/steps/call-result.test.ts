import { describe, expect, it } from 'vitest';
import { callResult } from './call-result.js';

const outcome = (content: string) => ({ tool: 'echo', status: 'success' as const, content, ms: 3 });

describe('callResult', () => {
  it('carries a small outcome back with its status', () => {
    expect(callResult(2, outcome('hi'), 3)).toEqual({
      position: 2,
      status: 'success',
      outcome: outcome('hi'),
    });
  });

  it("carries at most the call's share of the batch's room, and 4 KiB, else null", () => {
    const large = outcome('x'.repeat(5000));
    expect(callResult(0, large, 1).outcome).toBeNull();
    const medium = outcome('x'.repeat(1000));
    expect(callResult(0, medium, 8).outcome).toEqual(medium);
    expect(callResult(0, medium, 64).outcome).toBeNull();
    // A call that does not know its batch's size assumes the largest batch.
    expect(callResult(0, outcome('hi'), undefined).outcome).toEqual(outcome('hi'));
    expect(callResult(0, medium, undefined).outcome).toBeNull();
  });

  it('counts UTF-8 bytes, as Step Functions does: 1,400 CJK characters are 4,200 bytes, over 4 KiB', () => {
    expect(callResult(0, outcome('漢'.repeat(1400)), 1).outcome).toBeNull();
    expect(callResult(0, outcome('x'.repeat(1400)), 1).outcome).not.toBeNull();
  });
});
