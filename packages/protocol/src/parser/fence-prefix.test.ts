import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FencePrefix } from './fence-prefix.js';

/** The A5 rule as a regular expression, tested on the whole text (quadratic when repeated per chunk). */
const UNDECIDED_PROSE = /^\s*(?:```[\w+.-]*\s+)*(?:```[\w+.-]*|`{1,2})?$/;

describe('FencePrefix', () => {
  it('agrees with the fence expression on every prefix of any text, however it is chunked', () => {
    const unit = fc.constantFrom('`', '```', '\n', ' ', '\t', 'a', 'json', '-', '!', '\u00a0');
    const chunks = fc.array(fc.string({ unit, maxLength: 6 }), { maxLength: 8 });
    fc.assert(
      fc.property(chunks, (parts) => {
        const prefix = new FencePrefix();
        let text = '';
        for (const part of parts) {
          text += part;
          expect(prefix.push(part)).toBe(UNDECIDED_PROSE.test(text));
        }
      }),
      { numRuns: 5000 },
    );
  });
});
