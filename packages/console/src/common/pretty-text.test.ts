import { describe, expect, it } from 'vitest';
import { prettyText } from './pretty-text.js';

describe('prettyText', () => {
  it.each([
    ['plain words', 'plain words'],
    ['{"a":1}', '{\n  "a": 1\n}'],
    ['42', '42'],
    [{ b: [1] }, '{\n  "b": [\n    1\n  ]\n}'],
    [7, '7'],
  ])('shows %j as %j', (value, text) => {
    expect(prettyText(value)).toBe(text);
  });
});
