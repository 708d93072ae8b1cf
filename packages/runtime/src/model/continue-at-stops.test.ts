import { describe, expect, it } from 'vitest';
import { collectStream } from '../testing/collect-stream.js';
import { continueAtStops, MAX_CONTINUATIONS, type ProviderRequest } from './continue-at-stops.js';

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
