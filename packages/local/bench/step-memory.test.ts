import { STEP_CAPS } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { measureStepMemory } from './measure-step-memory.js';

const MB = 1024 * 1024;

describe('measureStepMemory: the cap on a step’s bytes (decision 0012)', () => {
  it.each([['argument' as const], ['think' as const]])(
    'refuses a 90 MiB step (%s) at the cap, stops reading, and peaks under 500 MB RSS',
    async (shape) => {
      const step = await measureStepMemory(shape, 90 * MB);
      expect(step).toMatchObject({
        next: 'results',
        failure: expect.stringContaining(`more than ${STEP_CAPS.outputBytes} bytes of text`),
        closed: true,
      });
      // The opener, then 64 KiB chunks up to the one that passes the cap: 16 MiB of 90 read.
      expect(step.chunksRead).toBe(1 + STEP_CAPS.outputBytes / (64 * 1024));
      expect(step.maxRss).toBeLessThan(500 * MB);
    },
  );
});
