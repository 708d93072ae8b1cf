import { describe, expect, it } from 'vitest';
import { fieldText } from './field-text.js';

describe('fieldText', () => {
  it.each([
    ['E5: a string is its text', 'green tea', 'green tea'],
    ['E5: a string keeps quotes and newlines unescaped', 'say "hi"\n', 'say "hi"\n'],
    ['E5: a number is its JSON text', 3.5, '3.5'],
    ['E5: a boolean is its JSON text', true, 'true'],
    ['E5: null is its JSON text', null, 'null'],
    ['E5: an array is compact JSON', ['a', 1], '["a",1]'],
    ['E5: an object is compact JSON', { a: { b: 'c' } }, '{"a":{"b":"c"}}'],
    ['undefined (no JSON text) is empty', undefined, ''],
  ])('%s', (_rule, value, text) => {
    expect(fieldText(value)).toBe(text);
  });
});
