import { describe, expect, it } from 'vitest';
import type { ModelPart } from './model.js';
import { usageAfterEnd } from './usage-after-end.js';

const USAGE = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };

async function drained(parts: AsyncIterator<ModelPart>, limits = { chars: 100, ms: 60_000 }) {
  const drain = { readPending: false };
  const usage = [];
  for await (const part of usageAfterEnd(parts, drain, limits)) usage.push(part);
  return { usage, drain };
}

describe('usageAfterEnd', () => {
  it('reads to the end of the stream, keeping the usage and discarding text and reasoning', async () => {
    const rest = (async function* (): AsyncGenerator<ModelPart> {
      yield 'invented';
      yield { reasoning: 'hmm' };
      yield USAGE;
    })();
    expect(await drained(rest)).toEqual({ usage: [USAGE], drain: { readPending: false } });
  });

  it('stops past its characters, reasoning counted, before a later usage', async () => {
    const rest = (async function* (): AsyncGenerator<ModelPart> {
      yield { reasoning: 'x'.repeat(101) };
      yield USAGE;
    })();
    expect(await drained(rest)).toEqual({ usage: [], drain: { readPending: false } });
  });

  it('stops at its deadline when the stream goes silent, saying a read is still pending', async () => {
    const silent: AsyncIterator<ModelPart> = { next: () => new Promise(() => {}) };
    expect(await drained(silent, { chars: 10, ms: 20 })).toEqual({ usage: [], drain: { readPending: true } });
  });

  it('stops when the stream fails: the step is whole, its usage unknown', async () => {
    const failing: AsyncIterator<ModelPart> = { next: () => Promise.reject(new TypeError('terminated')) };
    expect(await drained(failing)).toEqual({ usage: [], drain: { readPending: false } });
  });
});
