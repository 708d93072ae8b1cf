import { describe, expect, it } from 'vitest';
import { prettyJson } from './pretty-json.js';

describe('prettyJson', () => {
  it.each([
    ['{"a":1}', '{\n  "a": 1\n}'],
    ['[1]', '[\n  1\n]'],
    [{ b: true }, '{\n  "b": true\n}'],
    [7, '7'],
    [null, 'null'],
  ])('shows the data %j as %j', (value, json) => {
    expect(prettyJson(value)).toBe(json);
  });

  it.each(['plain words', '42', '"quoted"', '**bold**', '{not json'])(
    'leaves the text %j to be read as text',
    (value) => {
      expect(prettyJson(value)).toBeUndefined();
    },
  );
});
