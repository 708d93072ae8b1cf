import { describe, expect, it } from 'vitest';
import { schemaProblems } from './schema-problems.js';

/** The demo `sleep` tool's argument schema, as `GET /tools` gives it. */
const SLEEP = {
  type: 'object',
  properties: { ms: { type: 'integer', minimum: 0, maximum: 60000 }, value: { type: 'string' } },
  required: ['ms', 'value'],
  additionalProperties: false,
};

const TAGS = {
  type: 'object',
  properties: {
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 2 },
    mode: { enum: ['fast', 'slow'] },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  additionalProperties: false,
};

describe('schemaProblems', () => {
  it('finds nothing wrong with arguments the schema takes', () => {
    expect(schemaProblems(SLEEP, { ms: 10, value: 'z' })).toEqual([]);
    expect(schemaProblems(TAGS, { tags: ['a'], mode: 'fast', note: null })).toEqual([]);
  });

  it.each([
    ['a wrong type', SLEEP, { ms: 'ten', value: 'z' }, [{ path: 'args.ms', message: 'must be integer' }]],
    [
      'a fraction for an integer',
      SLEEP,
      { ms: 1.5, value: 'z' },
      [{ path: 'args.ms', message: 'must be integer' }],
    ],
    [
      'a number over its maximum',
      SLEEP,
      { ms: 60001, value: 'z' },
      [{ path: 'args.ms', message: 'must be at most 60000' }],
    ],
    ['a missing argument', SLEEP, { ms: 1 }, [{ path: 'args.value', message: 'is required' }]],
    [
      'an unknown argument',
      SLEEP,
      { ms: 1, value: 'z', extra: 1 },
      [{ path: 'args.extra', message: 'is not an argument this tool takes' }],
    ],
    [
      'a bad array item',
      TAGS,
      { tags: [''] },
      [{ path: 'args.tags.0', message: 'must be at least 1 characters' }],
    ],
    [
      'too many items',
      TAGS,
      { tags: ['a', 'b', 'c'] },
      [{ path: 'args.tags', message: 'must be at most 2 items' }],
    ],
    [
      'a value outside its enum',
      TAGS,
      { mode: 'medium' },
      [{ path: 'args.mode', message: 'must be one of "fast", "slow"' }],
    ],
    [
      'a value no anyOf form takes',
      TAGS,
      { note: 3 },
      [{ path: 'args.note', message: 'matches none of the forms this argument takes' }],
    ],
  ])('names %s at its place, as the API does', (_case, schema, value, problems) => {
    expect(schemaProblems(schema, value)).toEqual(problems);
  });
});
