import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from './json-bytes.js';

const encodedLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
/** Any UTF-16 code unit: lone surrogates, control characters and quotes included. */
const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
});

describe('jsonBytes', () => {
  it.each([
    ['null', null],
    ['booleans', [true, false]],
    ['numbers', [0, -0, 1.5e300, -2e-7, 42]],
    ['escapes', '"\\\b\t\n\f\r\u0000\u001f'],
    ['a pair and lone surrogates', '🙂\ud800x\udc00'],
    ['empty containers', [{}, [], '']],
    ['a call', { name: 'echo', args: { text: 'é漢🙂', n: [1, { deep: null }] } }],
  ])('counts %s as JSON.stringify writes them, in UTF-8', (_, value) => {
    expect(jsonBytes(value)).toBe(encodedLength(value));
  });

  it('counts any value JSON.parse makes as its JSON in UTF-8', () => {
    const value = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        anyText,
        fc.array(tie('tree')),
        fc.dictionary(anyText, tie('tree')),
      ),
    })).tree;
    fc.assert(
      fc.property(value, (generated) => {
        const parsed: unknown = JSON.parse(JSON.stringify(generated));
        expect(jsonBytes(parsed)).toBe(encodedLength(parsed));
      }),
    );
  });
});
