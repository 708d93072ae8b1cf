import { describe, expect, it } from 'vitest';
import { collectParts, collectStream } from '../testing/collect-stream.js';
import { continueAtStops, MAX_CONTINUATIONS, type ProviderRequest } from './continue-at-stops.js';
import { UNREPORTED_USAGE } from './model-usage.js';
import { DRAIN_LIMITS } from './usage-after-end.js';

const USAGE = { inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe('continueAtStops', () => {
  it(`A7 continues at most ${MAX_CONTINUATIONS} times, so a model that keeps stopping cannot loop forever`, async () => {
    const prefills: string[] = [];
    const stubborn: ProviderRequest = async function* (prefill) {
      prefills.push(prefill);
      yield prefill === '' ? '<execute>[{"name": "w", "args": {"c": "' : 'x';
      return { stopped: true, sequence: '</execute>' };
    };
    const text = (await collectStream(continueAtStops(stubborn, ['</execute>']))).join('');
    expect(prefills).toHaveLength(MAX_CONTINUATIONS + 1);
    expect(text).toBe(`<execute>[{"name": "w", "args": {"c": "${'</execute>x'.repeat(MAX_CONTINUATIONS)}`);
  });

  it('ends a step whose continuation never reported its usage with UNREPORTED_USAGE: the sum of the others is not the step’s', async () => {
    const requests: string[] = [];
    const forgetful: ProviderRequest = async function* (prefill) {
      requests.push(prefill);
      if (prefill === '') {
        yield '<execute>[{"name": "w", "args": {"c": "';
        yield USAGE;
        return { stopped: true, sequence: '</execute>' };
      }
      yield 'x"}}]</execute>';
      // Past the end of the step, then nothing but text until the read stops.
      for (;;) yield 'y'.repeat(1024);
    };
    const parts = await collectParts(continueAtStops(forgetful, ['</execute>']));
    expect(requests).toHaveLength(2);
    expect(parts.filter((part) => typeof part !== 'string')).toEqual([USAGE, UNREPORTED_USAGE]);
  });

  it('reads a request past the end of the step’s output for its usage, discarding the text and reasoning after it', async () => {
    const ignoring: ProviderRequest = async function* () {
      yield '<execute>[]</exe';
      yield 'cute>\n<results>invented';
      yield { reasoning: 'more' };
      yield '</results>';
      yield USAGE;
      return { stopped: false };
    };
    expect(await collectParts(continueAtStops(ignoring, []))).toEqual([
      '<execute>[]</exe',
      'cute>\n<results>invented',
      USAGE,
    ]);
  });

  it(`closes a request that goes on for more than ${DRAIN_LIMITS.chars} characters past the end, its usage unknown`, async () => {
    let read = 0;
    let closed = false;
    const endless: ProviderRequest = async function* () {
      try {
        yield '<execute>[]</execute>';
        for (;;) {
          read++;
          yield 'x'.repeat(1024);
        }
      } finally {
        closed = true;
      }
    };
    expect(await collectParts(continueAtStops(endless, []))).toEqual(['<execute>[]</execute>']);
    expect(closed).toBe(true);
    expect(read).toBe(DRAIN_LIMITS.chars / 1024 + 1);
  });

  it('closes the provider’s request when the reader stops early', async () => {
    let closed = false;
    const endless: ProviderRequest = async function* () {
      try {
        for (;;) yield 'more ';
      } finally {
        closed = true;
      }
    };
    for await (const part of continueAtStops(endless, [])) if (part === 'more ') break;
    expect(closed).toBe(true);
  });
});
