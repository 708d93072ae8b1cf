import { describe, expect, it } from 'vitest';
import { argChanges, editedArgs } from './edited-args.js';

describe('editedArgs', () => {
  const original = { text: 'one' };

  it('is undefined when the text still says the original arguments, however it is spaced', () => {
    expect(editedArgs('{ "text":   "one" }', original)).toBeUndefined();
  });

  it('is the parsed object when it was edited', () => {
    expect(editedArgs('{"text": "uno"}', original)).toEqual({ text: 'uno' });
  });

  it.each([
    ['{"text": ', /not valid JSON/],
    ['[1]', /must be a JSON object/],
    ['null', /must be a JSON object/],
  ])('is an Error saying what is wrong for %j', (text, message) => {
    const edited = editedArgs(text, original);
    expect(edited).toBeInstanceOf(Error);
    expect((edited as Error).message).toMatch(message);
  });
});

describe('argChanges', () => {
  it('names each argument an edit changed, added or dropped, with its values before and after', () => {
    expect(argChanges({ text: 'a', keep: 1, gone: true }, { text: 'b', keep: 1, added: [1] })).toEqual([
      { name: 'text', before: 'a', after: 'b' },
      { name: 'gone', before: true, after: undefined },
      { name: 'added', before: undefined, after: [1] },
    ]);
  });

  it('finds nothing when the edit is the same object', () => {
    expect(argChanges({ text: 'a' }, { text: 'a' })).toEqual([]);
  });
});
