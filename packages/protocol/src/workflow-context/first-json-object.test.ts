import { describe, expect, it } from 'vitest';
import { firstJsonObject } from './first-json-object.js';

describe('firstJsonObject', () => {
  it.each([
    ['a bare object', '{"a": 1}', { a: 1 }],
    ['an object in a ```json fence', 'Here:\n```json\n{"title": "Tea"}\n```\nDone.', { title: 'Tea' }],
    ['an object after and before prose', 'The result is {"a": "b"} as asked.', { a: 'b' }],
    ['a } inside a string', '{"code": "if (x) { y(); }"} tail }', { code: 'if (x) { y(); }' }],
    ['an escaped quote inside a string', String.raw`{"q": "a \"}\" b"}`, { q: 'a "}" b' }],
    ['nested objects, the outermost wins', 'x {"a": {"b": {"c": 1}}} y', { a: { b: { c: 1 } } }],
    ['an invalid { before a valid object', 'Use {braces} like {"ok": true}', { ok: true }],
    ['an unclosed { before a valid object', '{ not json {"ok": true}', { ok: true }],
    ['the first of two objects', '{"n": 1} and {"n": 2}', { n: 1 }],
    ['a { inside a string of an earlier, invalid candidate', '{"a {"b": 1}', { b: 1 }],
    ['an object inside an array', '[{"a": 1}]', { a: 1 }],
    ['an empty object', 'none: {}', {}],
    ['an inner object when the outer one is invalid', '{"a": {"b": 2}, }', { b: 2 }],
  ])('finds %s', (_case, text, object) => {
    expect(firstJsonObject(text)).toEqual(object);
  });

  it.each([
    ['no braces at all', 'plain prose'],
    ['an empty text', ''],
    ['only invalid candidates', '{a: 1} {oops}'],
    ['an unclosed object', '{"a": 1'],
    ['an array without objects', '[1, 2]'],
    ['a brace inside a JSON string only', '"{"'],
  ])('finds nothing in %s', (_case, text) => {
    expect(firstJsonObject(text)).toBeUndefined();
  });

  // Each brace is scanned once: a quadratic scan of these would outlast the test's timeout.
  it('reads long text full of unmatched braces in one pass', () => {
    expect(firstJsonObject('{'.repeat(200_000))).toBeUndefined();
    expect(firstJsonObject('x'.repeat(1_000_000))).toBeUndefined();
    expect(firstJsonObject(`${'{ '.repeat(100_000)}{"a": 1}`)).toEqual({ a: 1 });
  });
});
